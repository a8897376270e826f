/**
 * The OpenAPI description the app serves at /openapi.json, built exactly as in production against
 * a throwaway migrated embedded database that is deleted afterwards.
 *
 *   node --import tsx test/dump-openapi.ts <out.json>
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createContainer } from '../src/container.ts';
import { buildApp } from '../src/app.ts';

export async function dumpOpenApi(): Promise<Record<string, unknown>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hc-openapi-'));
  try {
    const config = loadConfig({ NODE_ENV: 'test', SIM_HEADS: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const database = await openDatabase(config, { poolSize: 2 });
    try {
      await migrateToLatest(database.db);
      const app = await buildApp(createContainer(config, database), { logger: false });
      try {
        const response = await app.inject({ method: 'GET', url: '/openapi.json' });
        if (response.statusCode !== 200) throw new Error(`GET /openapi.json answered ${response.statusCode}: ${response.body}`);
        return response.json();
      } finally {
        await app.close();
      }
    } finally {
      await database.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const out = process.argv[2];
  if (!out) {
    process.stderr.write('usage: node --import tsx test/dump-openapi.ts <out.json>\n');
    process.exit(2);
  }
  const doc = await dumpOpenApi();
  fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
  process.stdout.write(`wrote ${out}\n`);
}
