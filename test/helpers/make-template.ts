/**
 * Creates and migrates an embedded DATA_DIR: `node --import tsx test/helpers/make-template.ts <dir>`.
 * test/global-setup.ts runs it in a child process because PGlite's WebAssembly memory (several
 * hundred MB while a data dir is created) is only given back when the process ends, and the
 * vitest main process lives for the whole run.
 */
import { openDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: make-template.ts <dataDir>');
const database = await openDatabase({ databaseUrl: null, dataDir, databasePoolSize: 2 });
try {
  await migrateToLatest(database.db);
} finally {
  await database.close();
}
