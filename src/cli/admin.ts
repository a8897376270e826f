import type { Container } from '../container.ts';
import { AppError } from '../lib/errors.ts';
import { parseAdminArgs } from './admin-program.ts';

/**
 * Admin CLI: `npm run --silent admin -- <command> [--flags]`. Each command prints exactly one JSON
 * object on stdout (errors too, as the API's error envelope) and exits non-zero on failure, so it
 * can be piped to jq. `--help`, `help COMMAND` and `COMMAND --help` print plain-text usage instead
 * (admin-program.ts). It works whether or not the service is running on the same DATA_DIR: with
 * the embedded database it goes through the running instance's socket when there is one.
 */
function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

/** An AppError printed as the API's envelope (exit 1); anything else is rethrown (an internal error). */
function printAppError(error: unknown): number {
  if (!(error instanceof AppError)) throw error;
  print({ error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) } });
  return 1;
}

async function run(argv: string[]): Promise<number> {
  const parsed = parseAdminArgs(argv, (text) => process.stdout.write(text));
  if (parsed.kind === 'help') return 0;
  if (parsed.kind === 'error') {
    print({ error: parsed.error });
    return 2;
  }
  const { command, values } = parsed;

  // Loaded only now: a mistyped command or a help answers at once instead of after loading the database layer.
  const [{ loadConfig }, { openDatabase }, { migrateToLatest }, { createContainer }, { default: pino }] = await Promise.all([
    import('../config.ts'),
    import('../db/database.ts'),
    import('../db/migrate.ts'),
    import('../container.ts'),
    import('pino'),
  ]);
  const config = loadConfig({ ...process.env, SIM_HEADS: '0' });
  if ('onFiles' in command) {
    try {
      print(await command.onFiles(config, values));
      return 0;
    } catch (error) {
      return printAppError(error);
    }
  }
  const database = await openDatabase(config, { joinRunningInstance: true, poolSize: 2, fromTemplate: true });
  let container: Container | undefined;
  try {
    await migrateToLatest(database.db);
    // The services' log lines (a mail kept in the dev mailbox, one that failed) go to stderr: stdout is the one JSON object.
    container = createContainer(config, database, undefined, { log: pino({ level: config.logLevel }, pino.destination(2)) });
    print(await command.run(container, values));
    return 0;
  } catch (error) {
    return printAppError(error);
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
