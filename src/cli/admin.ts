import { parseArgs } from 'node:util';
import type { Container } from '../container.ts';
import { AppError } from '../http/errors.ts';
import { adminCommands, type AdminCommand } from './admin-commands.ts';

/**
 * Admin CLI: `npm run --silent admin -- <command> [--flags]`. Each command prints exactly one JSON
 * object on stdout (errors too, as the API's error envelope) and exits non-zero on failure, so it
 * can be piped to jq. It works whether or not the service is running on the same DATA_DIR: with
 * the embedded database it goes through the running instance's socket when there is one.
 */
function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

function usage(): string {
  const lines = Object.entries(adminCommands).map(([name, c]) => `  ${name} ${c.usage}\n      ${c.summary}`);
  return `usage: npm run --silent admin -- <command> [options]\n\ncommands:\n${lines.join('\n')}`;
}

/** parseArgs reads "--amount -100" as a missing value; people write it that way, so join it. */
function joinNegativeNumbers(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i].startsWith('--') && !args[i].includes('=') && /^-\d+$/.test(args[i + 1] ?? '')) out.push(`${args[i]}=${args[++i]}`);
    else out.push(args[i]);
  }
  return out;
}

async function run(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command: AdminCommand | undefined = name ? adminCommands[name] : undefined;
  if (!command) {
    print({ error: { code: 'unknown_command', message: name ? `Unknown command "${name}".` : 'Give a command.', details: { usage: usage() } } });
    return 2;
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: joinNegativeNumbers(rest), options: command.options, strict: true, allowPositionals: false }));
  } catch (error) {
    print({ error: { code: 'validation_failed', message: (error as Error).message, details: { usage: `${name} ${command.usage}` } } });
    return 2;
  }

  // Loaded only now: a mistyped command answers at once instead of after loading the database layer.
  const [{ loadConfig }, { openDatabase }, { migrateToLatest }, { createContainer }] = await Promise.all([
    import('../config.ts'),
    import('../db/database.ts'),
    import('../db/migrate.ts'),
    import('../container.ts'),
  ]);
  const config = loadConfig({ ...process.env, SIM_HEADS: '0' });
  const database = await openDatabase(config, { joinRunningInstance: true, poolSize: 2 });
  let container: Container | undefined;
  try {
    await migrateToLatest(database.db);
    container = createContainer(config, database);
    print(await command.run(container, values));
    return 0;
  } catch (error) {
    if (error instanceof AppError) {
      print({ error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) } });
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    print({ error: { code: 'internal', message: (error as Error)?.message ?? String(error) } });
    process.exit(1);
  },
);
