import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { adminQuery, quoteIdent, withDatabaseName, type TemplateInfo } from './helpers/pg-admin.ts';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAKE_TEMPLATE = fileURLToPath(new URL('./helpers/make-template.ts', import.meta.url));

/**
 * Makes ONE migrated template database for the integration run and hands its whereabouts to the
 * test files (`inject('testTemplate')`); each file then copies it (test/helpers/test-database.ts).
 * TEST_DATABASE_URL (an admin connection to a PostgreSQL server, e.g.
 * postgres://postgres@127.0.0.1:5432/test) switches from the embedded default to that server.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await buildWhenStale();
  const adminUrl = process.env.TEST_DATABASE_URL?.trim();
  const { info, teardown } = adminUrl ? await serverTemplate(adminUrl) : await embeddedTemplate();
  project.provide('testTemplate', info);
  return teardown;
}

async function embeddedTemplate(): Promise<{ info: TemplateInfo; teardown: () => Promise<void> }> {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hc-test-'));
  const templateDir = path.join(runDir, 'template');
  try {
    await runMakeTemplate(templateDir);
  } catch (error) {
    fs.rmSync(runDir, { recursive: true, force: true });
    throw error;
  }
  return {
    info: { kind: 'embedded', runDir, templateDir },
    // Every file's copy lives under runDir, so this also removes copies a crashed worker left.
    teardown: async () => fs.rmSync(runDir, { recursive: true, force: true }),
  };
}

/**
 * The suites start the service and the admin CLI as users do, from dist/ (test/helpers/service-process.ts):
 * it is brought up to date with src/ first, by the build `npm start` runs when src/ changed
 * (scripts/build.mjs builds only then). Vitest runs the projects' global set-ups one after another,
 * so two builds never race; after `npm ci` (CI) there is nothing to build.
 */
async function buildWhenStale(): Promise<void> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'scripts', 'build.mjs')], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  if (code !== 0) throw new Error(`Building dist/ failed (exit ${code ?? signal}):\n${output}`);
}

/** See test/helpers/make-template.ts for why this runs in a child process. */
async function runMakeTemplate(templateDir: string): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAKE_TEMPLATE, templateDir], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  if (code !== 0) throw new Error(`Creating the template database failed (exit ${code ?? signal}):\n${output}`);
}

async function serverTemplate(adminUrl: string): Promise<{ info: TemplateInfo; teardown: () => Promise<void> }> {
  try {
    await adminQuery(adminUrl, 'SELECT 1');
  } catch (error) {
    const where = new URL(adminUrl);
    where.password = where.password ? '***' : '';
    throw new Error(
      `\n\n*** TEST_DATABASE_URL is set but PostgreSQL at ${where.toString()} cannot be reached: ${(error as Error).message}\n` +
        '*** Start PostgreSQL (or unset TEST_DATABASE_URL to test on the embedded database). ' +
        `${process.env.CI === 'true' ? 'Under CI this is a failure, not a skip.' : 'Refusing to fall back silently.'}\n`,
    );
  }
  const runId = randomBytes(4).toString('hex');
  const templateName = `hc_tpl_${runId}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${quoteIdent(templateName)}`);
  const dropAll = async () => {
    // Per-file copies are named hc_t_<runId>_…; drop any a crashed worker left, then the template.
    const left = await adminQuery(adminUrl, `SELECT datname FROM pg_database WHERE datname LIKE 'hc\\_t\\_${runId}\\_%'`);
    for (const row of left.rows as { datname: string }[]) {
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${quoteIdent(row.datname)} WITH (FORCE)`);
    }
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${quoteIdent(templateName)} WITH (FORCE)`);
  };
  try {
    const database = await openDatabase({ databaseUrl: withDatabaseName(adminUrl, templateName), dataDir: os.tmpdir(), databasePoolSize: 2 });
    try {
      await migrateToLatest(database.db);
    } finally {
      await database.close();
    }
  } catch (error) {
    await dropAll();
    throw error;
  }
  return { info: { kind: 'server', adminUrl, templateName, runId }, teardown: dropAll };
}
