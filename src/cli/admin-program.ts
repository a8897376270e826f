import { Command, CommanderError, type Help } from 'commander';
import { adminCommands, type AdminCommand } from './admin-commands.ts';

/**
 * The admin CLI's arguments, read by commander (ARCHITECTURE §2). Commander prints the help
 * (`--help`, `help COMMAND`, `COMMAND --help`) as plain text on stdout; everything else it would
 * print or exit with is turned into a value here, so a mistake still comes out as one JSON
 * `{"error":{…}}` object (README "Admin CLI") and only admin.ts decides what to print and when
 * to exit.
 */
export const PROGRAM = 'npm run --silent admin --';

const ABOUT =
  "Headcount's admin commands. Each prints exactly one JSON object on stdout (errors too, as " +
  '{"error":{…}}, with a non-zero exit). They work whether or not the service is running.';

export type Values = Record<string, string | boolean | undefined>;
export interface CliError {
  code: 'unknown_command' | 'validation_failed';
  message: string;
  details: { usage: string };
}
export type Parsed =
  | { kind: 'run'; name: string; command: AdminCommand; values: Values }
  | { kind: 'help' }
  | { kind: 'error'; error: CliError };

/** A thrown mistake of ours (a stray argument), caught beside commander's own. */
class ArgumentsError extends Error {}

/**
 * The overview lists each command with its options on one line (too long to share a line with a
 * column of descriptions) and its summary below, wrapped to the help width.
 */
const overview: Partial<Help> = {
  subcommandTerm: (cmd) => `${cmd.name()} ${adminCommands[cmd.name()]?.usage ?? cmd.usage()}`.trim(),
  formatItem(this: Help, term, _width, description, helper) {
    if (!description) return `  ${term}`;
    const wrapped = helper.boxWrap(description, (this.helpWidth ?? 80) - 6).split('\n');
    return [`  ${term}`, ...wrapped.map((line) => `      ${line}`)].join('\n');
  },
};

function buildProgram(write: (text: string) => void, chosen: { name?: string; values?: Values }): Command {
  const program = new Command(PROGRAM)
    .usage('<command> [options]')
    .description(ABOUT)
    .helpOption('-h, --help', 'show this help')
    .helpCommand('help [command]', 'Show the usage and options of one command.')
    .exitOverride()
    .showSuggestionAfterError(true)
    // Help goes to stdout; commander's error lines are dropped: the JSON error replaces them.
    .configureOutput({ writeOut: write, writeErr: () => undefined, outputError: () => undefined });
  for (const [name, spec] of Object.entries(adminCommands)) {
    const command = program
      .command(name)
      .usage(spec.usage || '[options]')
      .description(spec.summary)
      .helpOption('-h, --help', 'show this help')
      // Checked below, so the message names the stray word.
      .allowExcessArguments(true);
    for (const [option, o] of Object.entries(spec.options)) {
      command.option(o.type === 'string' ? `--${option} <${o.value}>` : `--${option}`, o.description);
    }
    command.action((opts: Record<string, string | boolean | undefined>, self: Command) => {
      if (self.args.length) {
        throw new ArgumentsError(`Unexpected argument "${self.args[0]}": every value follows its option (--name VALUE).`);
      }
      // Back from commander's camelCase (expiresDays) to the names the commands read (expires-days).
      const values: Values = {};
      for (const o of self.options) if (o.long) values[o.long.slice(2)] = opts[o.attributeName()];
      chosen.name = name;
      chosen.values = values;
    });
  }
  program.configureHelp(overview);
  return program;
}

/** "error: unknown option '--colour'\n(Did you mean --color?)" → "Unknown option '--colour' (Did you mean --color?)" */
function sentence(message: string): string {
  const text = message.replace(/^error:\s*/, '').replace(/\s*\n\s*/g, ' ').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Reads argv (without node and the script). Help is written with `write` and reported as
 * `help`; a command and its option values come back to run; any mistake is a CliError.
 */
export function parseAdminArgs(argv: string[], write: (text: string) => void): Parsed {
  const chosen: { name?: string; values?: Values } = {};
  const program = buildProgram(write, chosen);
  const overviewText = () => program.helpInformation();
  const usageOf = (name: string | undefined) => {
    const spec = name ? adminCommands[name] : undefined;
    return spec ? `${name} ${spec.usage}`.trim() : overviewText();
  };
  if (argv.length === 0) {
    return { kind: 'error', error: { code: 'unknown_command', message: 'Give a command (or --help).', details: { usage: overviewText() } } };
  }
  try {
    program.parse(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof ArgumentsError) {
      return { kind: 'error', error: { code: 'validation_failed', message: error.message, details: { usage: usageOf(argv[0]) } } };
    }
    if (!(error instanceof CommanderError)) throw error;
    if (error.exitCode === 0) return { kind: 'help' };
    if (error.code === 'commander.unknownCommand' || error.code === 'commander.help') {
      // commander.help with a failure: `help NAME` for a command that does not exist.
      const name = argv[0] === 'help' ? argv[1] : argv[0];
      const message = error.code === 'commander.help' ? `Unknown command "${name}".` : sentence(error.message);
      return { kind: 'error', error: { code: 'unknown_command', message, details: { usage: overviewText() } } };
    }
    return { kind: 'error', error: { code: 'validation_failed', message: sentence(error.message), details: { usage: usageOf(argv[0]) } } };
  }
  if (!chosen.name || !chosen.values) {
    return { kind: 'error', error: { code: 'unknown_command', message: 'Give a command (or --help).', details: { usage: overviewText() } } };
  }
  return { kind: 'run', name: chosen.name, command: adminCommands[chosen.name], values: chosen.values };
}
