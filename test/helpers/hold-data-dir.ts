/**
 * A second process that opens an embedded DATA_DIR and holds it, as a running server would:
 *   node --import tsx test/helpers/hold-data-dir.ts <dataDir>
 * Prints "ready <pid>" once open; closes cleanly and exits on SIGTERM or when stdin ends.
 */
import { openDatabase } from '../../src/db/database.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: hold-data-dir.ts <dataDir>');
const database = await openDatabase({ databaseUrl: null, dataDir, databasePoolSize: 2 });
let closing = false;
const close = async () => {
  if (closing) return;
  closing = true;
  await database.close();
  process.exit(0);
};
process.on('SIGTERM', () => void close());
process.stdin.on('end', () => void close());
process.stdin.resume();
process.stdout.write(`ready ${process.pid}\n`);
