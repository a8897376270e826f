/**
 * Makes the embedded database template a fresh DATA_DIR starts from (src/db/embedded-template.ts):
 * `node dist/cli/make-embedded-template.js <dir>`, run by scripts/build.mjs at install. A new
 * PGlite data directory, every migration, and pg-boss's own schema (which the job queue would
 * otherwise create on the first start), then the manifest that says which PGlite made it.
 */
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { writeTemplateManifest } from '../db/embedded-template.ts';
import { createJobRunner } from '../jobs/job-runner.ts';

const templateDir = process.argv[2];
if (!templateDir) throw new Error('usage: make-embedded-template <dir>');
// Made the slow way (openDatabase never copies a template unless asked): it must not start from an older one.
const database = await openDatabase({ databaseUrl: null, dataDir: templateDir, databasePoolSize: 2 });
try {
  const migrations = await migrateToLatest(database.db);
  const jobs = createJobRunner(database.connection);
  await jobs.start([], { work: false, log: console });
  await jobs.stop();
  await database.close();
  writeTemplateManifest(templateDir, migrations);
} catch (error) {
  await database.close();
  throw error;
}
