import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import type { Config } from '../../src/config.ts';
import { adminQuery, quoteIdent, withDatabaseName, type TemplateInfo } from './pg-admin.ts';

export type { TemplateInfo };

/**
 * One migrated template per test run (made by test/global-setup.ts), one fresh copy per test file:
 * - embedded (default): the template is a closed PGlite DATA_DIR; a copy is a directory copy
 *   (reopening takes under a second, creating one takes ~4 s);
 * - PostgreSQL (TEST_DATABASE_URL): the template is a database `hc_tpl_<run>`; a copy is
 *   `CREATE DATABASE hc_t_<run>_<random> TEMPLATE hc_tpl_<run>`.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    testTemplate: TemplateInfo;
  }
}

export type DatabaseSettings = Pick<Config, 'databaseUrl' | 'dataDir' | 'databasePoolSize'>;

export interface TestDatabase {
  kind: 'embedded' | 'server';
  /** What openDatabase needs; dataDir is a fresh directory in both cases (unused on a server). */
  settings: DatabaseSettings;
  /** The same as environment variables for loadConfig. */
  env: Record<string, string>;
  /** Drops the database or deletes the directory. Close every pool on it first. */
  dispose(): Promise<void>;
}

export const POOL_SIZE = 5;

export function testTemplate(): TemplateInfo {
  return inject('testTemplate');
}

export function isServerRun(): boolean {
  return testTemplate().kind === 'server';
}

function embeddedCopy(template: Extract<TemplateInfo, { kind: 'embedded' }>, fromTemplate: boolean): TestDatabase {
  const dataDir = fs.mkdtempSync(path.join(template.runDir, 'f-'));
  if (fromTemplate) fs.cpSync(template.templateDir, dataDir, { recursive: true });
  return {
    kind: 'embedded',
    settings: { databaseUrl: null, dataDir, databasePoolSize: POOL_SIZE },
    env: { DATA_DIR: dataDir, DATABASE_POOL_SIZE: String(POOL_SIZE) },
    async dispose() {
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function serverCopy(template: Extract<TemplateInfo, { kind: 'server' }>, fromTemplate: boolean): Promise<TestDatabase> {
  const name = `hc_t_${template.runId}_${randomBytes(5).toString('hex')}`;
  const clause = fromTemplate ? ` TEMPLATE ${quoteIdent(template.templateName)}` : '';
  // Two files copying the template at the same moment can briefly see each other's connection to
  // it ("source database is being accessed by other users"); try again a few times.
  for (let attempt = 1; ; attempt++) {
    try {
      await adminQuery(template.adminUrl, `CREATE DATABASE ${quoteIdent(name)}${clause}`);
      break;
    } catch (error) {
      if (attempt >= 10 || !/being accessed by other users/.test((error as Error).message)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
  const databaseUrl = withDatabaseName(template.adminUrl, name);
  // Nothing is written under dataDir on a server; it is set so no test touches ./data.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hc-t-'));
  return {
    kind: 'server',
    settings: { databaseUrl, dataDir, databasePoolSize: POOL_SIZE },
    env: { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, DATABASE_POOL_SIZE: String(POOL_SIZE) },
    async dispose() {
      fs.rmSync(dataDir, { recursive: true, force: true });
      await adminQuery(template.adminUrl, `DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
    },
  };
}

/** A fresh copy of the migrated template, for this test file alone. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = testTemplate();
  return template.kind === 'embedded' ? embeddedCopy(template, true) : serverCopy(template, true);
}

/**
 * An empty, unmigrated database: a new directory on the embedded default (PGlite creates it on
 * first open, which takes a few seconds), a new database on PostgreSQL.
 */
export async function createEmptyDatabase(): Promise<TestDatabase> {
  const template = testTemplate();
  return template.kind === 'embedded' ? embeddedCopy(template, false) : serverCopy(template, false);
}
