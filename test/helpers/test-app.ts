import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadConfig, type Config } from '../../src/config.ts';
import { openDatabase, type Database, type Db } from '../../src/db/database.ts';
import { createContainer, type Container, type ContainerOptions } from '../../src/container.ts';
import { buildApp } from '../../src/app.ts';
import { FakeClock } from '../../src/lib/clock.ts';
import { SCOPES, type Scope } from '../../src/lib/actor.ts';
import { createTestDatabase, type TestDatabase } from './test-database.ts';
import { createResponseValidator, type ResponseValidator } from './openapi-validator.ts';

export interface TestAppOptions {
  /** Extra environment for loadConfig (the real process.env is never read). */
  env?: Record<string, string>;
  /** Where the fake clock starts. */
  now?: Date | string;
  /** Turn the app's log on and collect its JSON lines here (set LOG_LEVEL in env too). */
  logStream?: NodeJS.WritableStream;
  /** The authorization server's outbound fetch (client ID metadata documents from a local stand-in). */
  oauthFetch?: ContainerOptions['oauthFetch'];
  /** How webhook deliveries resolve names (DNS rebinding tests). */
  outboundLookup?: ContainerOptions['outboundLookup'];
  /** Image imports' test seams: a local https stand-in's certificate, and its address standing in for a public one. */
  importCa?: ContainerOptions['importCa'];
  importAllowedAddress?: ContainerOptions['importAllowedAddress'];
}

export interface TestKey {
  accountId: string;
  keyId: string;
  secret: string;
  /** Headers to spread into an inject call. */
  auth: { authorization: string };
}

export interface TestApp {
  app: FastifyInstance;
  container: Container;
  config: Config;
  database: Database;
  db: Db;
  clock: FakeClock;
  testDatabase: TestDatabase;
  /**
   * app.inject, then the response is checked against the served /openapi.json (R7.3): an
   * undocumented status or a body that does not match its schema throws. Use this, not app.inject.
   */
  inject(options: InjectOptions | string): Promise<LightMyRequestResponse>;
  /** A new account with one API key (all scopes unless given). Pass accountId to add a key to an existing account. */
  makeKey(scopes?: readonly Scope[], cap?: number | null, options?: { accountId?: string; mode?: 'live' | 'test' }): Promise<TestKey>;
  /** Closes the app and the database and deletes this file's copy of it. */
  close(): Promise<void>;
}

/** The configuration every test app starts from; `overrides` win. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({ NODE_ENV: 'test', SIM_HEADS: '0', LOG_LEVEL: 'silent', ...overrides });
}

/**
 * The app on this test file's own fresh copy of the migrated template database (embedded PGlite,
 * or PostgreSQL when TEST_DATABASE_URL is set), with a fake clock. Call once per file, in
 * beforeAll, and close it in afterAll.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const testDatabase = await createTestDatabase();
  let database: Database | null = null;
  let app: FastifyInstance | null = null;
  try {
    const config = testConfig({ ...testDatabase.env, ...options.env });
    database = await openDatabase(config);
    const clock = new FakeClock(options.now);
    const container = createContainer(config, database, clock, { oauthFetch: options.oauthFetch, outboundLookup: options.outboundLookup, importCa: options.importCa, importAllowedAddress: options.importAllowedAddress });
    app = await buildApp(container, options.logStream ? { logStream: options.logStream } : { logger: false });
    await app.ready();
    return assemble(app, container, database, testDatabase, clock);
  } catch (error) {
    await app?.close();
    await database?.close();
    await testDatabase.dispose();
    throw error;
  }
}

function assemble(app: FastifyInstance, container: Container, database: Database, testDatabase: TestDatabase, clock: FakeClock): TestApp {
  let validator: Promise<ResponseValidator> | null = null;
  const responseValidator = () =>
    (validator ??= app.inject({ method: 'GET', url: '/openapi.json' }).then((response) => {
      if (response.statusCode !== 200) throw new Error(`GET /openapi.json answered ${response.statusCode}: ${response.body}`);
      return createResponseValidator(response.json());
    }));

  let keys = 0;
  let closed = false;

  return {
    app,
    container,
    config: container.config,
    database,
    db: database.db,
    clock,
    testDatabase,

    async inject(options) {
      const request: InjectOptions = typeof options === 'string' ? { method: 'GET', url: options } : options;
      const response = await app.inject(request);
      (await responseValidator()).check({
        method: request.method ?? 'GET',
        url: requestUrl(request),
        statusCode: response.statusCode,
        headers: response.headers,
        body: response.body,
      });
      return response;
    },

    async makeKey(scopes = SCOPES, cap = null, options = {}) {
      keys += 1;
      const accountId = options.accountId ?? (await container.accounts.createAccount({ name: `Test account ${keys}` })).id;
      const { key, secret } = await container.accounts.createKey({
        accountId,
        scopes: [...scopes],
        dailyCapCredits: cap,
        name: `test key ${keys}`,
        mode: options.mode,
      });
      return { accountId, keyId: key.id, secret, auth: { authorization: `Bearer ${secret}` } };
    },

    async close() {
      if (closed) return;
      closed = true;
      try {
        await app.close();
      } finally {
        await database.close();
        await testDatabase.dispose();
      }
    },
  };
}

function requestUrl(request: InjectOptions): string {
  const url = request.url ?? request.path ?? '/';
  if (typeof url === 'string') return url;
  return url.pathname ?? '/';
}
