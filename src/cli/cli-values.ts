import type { Container } from '../container.ts';
import type { Config } from '../config.ts';
import { validationError } from '../lib/errors.ts';

/** Reading the admin commands' option values; a mistake is the API's 400 envelope, naming the option. */
export type Values = Record<string, string | boolean | undefined>;

export function required(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') {
    throw validationError([{ field: name, code: 'required', message: `--${name} is required.` }], `--${name} is required.`);
  }
  return value.trim();
}

export function integer(value: string | boolean | undefined, name: string): number | null {
  if (value === undefined) return null;
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n)) {
    throw validationError([{ field: name, code: 'invalid_format', message: `--${name} must be a whole number.` }], `--${name} must be a whole number.`);
  }
  return n;
}

/** A comma-separated list ("a, b,c"), empty when the option is absent. */
export function list(value: string | boolean | undefined): string[] {
  return typeof value === 'string' ? value.split(',').map((item) => item.trim()).filter(Boolean) : [];
}

/**
 * An option as `--help` shows it: a string option takes a value (`value` names it, e.g. ID); a
 * boolean one is a flag. Whether it is required is checked by the command (so the error is ours).
 */
type OptionSpec = { type: 'string'; value: string; description: string } | { type: 'boolean'; description: string };
interface CommandHelp {
  /** The options in one line, as README.md and `--help` show them. */
  usage: string;
  /** One line: what the command does. */
  summary: string;
  options: Record<string, OptionSpec>;
}
/**
 * Most commands act through the services on an open database; a few (backup, restore) act on
 * DATA_DIR's files themselves and must not open it first (`onFiles`).
 */
export type ServiceCommand = CommandHelp & { run(container: Container, values: Values): Promise<unknown> };
export type FilesCommand = CommandHelp & { onFiles(config: Config, values: Values): Promise<unknown> };
export type AdminCommand = ServiceCommand | FilesCommand;

/** The command's `run`, for callers (tests) that run service commands on a container of their own. */
export function serviceCommand(command: AdminCommand | undefined): ServiceCommand {
  if (!command || !('run' in command)) throw new Error('not a command that runs on the services');
  return command;
}

