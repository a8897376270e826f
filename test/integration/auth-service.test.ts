import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { AppError } from '../../src/lib/errors.ts';
import { generateApiKey } from '../../src/lib/api-key-format.ts';
import { createAccountsRepository, type AccountsRepository } from '../../src/modules/accounts/accounts.repository.ts';
import { createAccountsService } from '../../src/modules/accounts/accounts.service.ts';
import pg from 'pg';
import { createLocalNotifier, createPostgresNotifier, type Notifier } from '../../src/lib/notifier.ts';

/**
 * Authentication at the service level (container.accounts.authenticate); HTTP authentication is
 * tested with the real authenticated routes.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function refusal(token: string, accounts = t.container.accounts): Promise<AppError> {
  const error = await accounts.authenticate(token).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe('unauthorized');
  expect((error as AppError).status).toBe(401);
  return error as AppError;
}

/**
 * An accounts service whose repository counts key lookups, to prove what is refused before any
 * and what the key cache spares. Its notifier hears every change unless told otherwise.
 */
function countingService(notifier: Notifier = createLocalNotifier({ foreignChanges: () => undefined })) {
  const repo = createAccountsRepository(t.db);
  let lookups = 0;
  const counted: AccountsRepository = {
    ...repo,
    findKeyByHash: (...args) => {
      lookups += 1;
      return repo.findKeyByHash(...args);
    },
  };
  return { accounts: createAccountsService({ repo: counted, clock: t.clock, keyChanges: notifier }), lookups: () => lookups };
}

/** Changes the character at `index` to another base62 character. */
function mutate(text: string, index: number): string {
  const replacement = text[index] === 'a' ? 'b' : 'a';
  return text.slice(0, index) + replacement + text.slice(index + 1);
}

describe('accounts.authenticate', () => {
  it('returns the actor of a good key, with its scopes and cap', async () => {
    const key = await t.makeKey(['questions:read', 'templates:read'], 500);
    const actor = await t.container.accounts.authenticate(key.secret);
    expect(actor).toEqual({ accountId: key.accountId, keyId: key.keyId, scopes: ['questions:read', 'templates:read'], dailyCapCredits: 500 });
  });

  it.each([
    ['empty', ''],
    ['a word', 'hello'],
    ['a bearer header', 'Bearer hc_live_x'],
    ['an unknown prefix', `sk_live_${'a'.repeat(49)}`],
    ['a short key', 'hc_live_abc123'],
  ])('refuses a malformed key (%s) before any lookup', async (_label, token) => {
    const { accounts, lookups } = countingService();
    const error = await refusal(token, accounts);
    expect(error.message).toMatch(/malformed/);
    expect(lookups()).toBe(0);
  });

  it('refuses a key with one character changed (bad checksum) before any lookup', async () => {
    const { secret } = await t.makeKey();
    const { accounts, lookups } = countingService();
    for (const index of [8, 30, secret.length - 7, secret.length - 1]) {
      await refusal(mutate(secret, index), accounts);
    }
    await refusal(secret.replace('hc_live_', 'hc_test_'), accounts);
    await refusal(secret + 'x', accounts);
    expect(lookups()).toBe(0);
    // The unchanged key still works through the same service.
    await expect(accounts.authenticate(secret)).resolves.toMatchObject({ scopes: expect.any(Array) });
    expect(lookups()).toBe(1);
  });

  it('refuses a well-formed key that was never issued', async () => {
    const error = await refusal(generateApiKey('live'));
    expect(error.message).toMatch(/not known/);
  });

  it('refuses a revoked key on the very next call', async () => {
    const key = await t.makeKey();
    await expect(t.container.accounts.authenticate(key.secret)).resolves.toMatchObject({ keyId: key.keyId });
    await t.container.accounts.revokeKey(key.keyId);
    const error = await refusal(key.secret);
    expect(error.message).toMatch(/revoked/);
  });

  it('keeps keys of one account apart from another', async () => {
    const a = await t.makeKey(['questions:read']);
    const b = await t.makeKey(['questions:write'], null, { accountId: a.accountId });
    const c = await t.makeKey(['questions:read']);
    const [actorA, actorB, actorC] = await Promise.all([a, b, c].map((k) => t.container.accounts.authenticate(k.secret)));
    expect(actorB.accountId).toBe(a.accountId);
    expect(actorB.scopes).toEqual(['questions:write']);
    expect(actorC.accountId).not.toBe(actorA.accountId);
  });

  it('records last use at most once a minute', async () => {
    const key = await t.makeKey();
    const lastUsed = async () => (await t.container.accounts.listKeys(key.accountId)).find((k) => k.id === key.keyId)!.lastUsedAt;
    expect(await lastUsed()).toBeNull();
    const first = t.clock.now().toISOString();
    await t.container.accounts.authenticate(key.secret);
    expect(await lastUsed()).toBe(first);
    t.clock.advance(30_000);
    await t.container.accounts.authenticate(key.secret);
    expect(await lastUsed()).toBe(first);
    t.clock.advance(31_000);
    await t.container.accounts.authenticate(key.secret);
    expect(await lastUsed()).toBe(t.clock.now().toISOString());
  });
});

describe('the key cache (docs/performance.md "The API key cache")', () => {
  it('looks a key up once, then knows it without the database until a minute has passed', async () => {
    const key = await t.makeKey(['questions:read'], 300);
    const { accounts, lookups } = countingService();
    const first = await accounts.authenticate(key.secret);
    for (let i = 0; i < 5; i++) expect(await accounts.authenticate(key.secret)).toEqual(first);
    expect(lookups()).toBe(1);
    t.clock.advance(59_000);
    await accounts.authenticate(key.secret);
    expect(lookups()).toBe(1);
    t.clock.advance(1_000);
    await accounts.authenticate(key.secret);
    expect(lookups()).toBe(2);
  });

  it('hands out a frozen actor, so no request can change what the next one sees', async () => {
    const key = await t.makeKey(['questions:read']);
    const { accounts } = countingService();
    const actor = await accounts.authenticate(key.secret);
    expect(Object.isFrozen(actor) && Object.isFrozen(actor.scopes)).toBe(true);
    expect(() => (actor.scopes as string[]).push('questions:write')).toThrow(TypeError);
  });

  it('keeps neither unknown nor revoked keys: each is looked up every time', async () => {
    const { accounts, lookups } = countingService();
    const unknown = generateApiKey('live');
    const revoked = await t.makeKey();
    await t.container.accounts.revokeKey(revoked.keyId);
    for (let i = 0; i < 3; i++) {
      await refusal(unknown, accounts);
      await refusal(revoked.secret, accounts);
    }
    expect(lookups()).toBe(6);
  });

  it('forgets a key it revoked before revokeKey returns', async () => {
    const key = await t.makeKey();
    const { accounts, lookups } = countingService();
    await accounts.authenticate(key.secret);
    await accounts.revokeKey(key.keyId);
    expect((await refusal(key.secret, accounts)).message).toMatch(/revoked/);
    expect(lookups()).toBe(2);
  });

  it('asks the database every time while its notifier does not hear every change', async () => {
    const key = await t.makeKey();
    const { accounts, lookups } = countingService(createLocalNotifier());
    for (let i = 0; i < 3; i++) await accounts.authenticate(key.secret);
    expect(lookups()).toBe(3);
  });

  it('does not keep a lookup that raced with a change to the keys', async () => {
    const key = await t.makeKey();
    const notifier = createLocalNotifier({ foreignChanges: () => undefined });
    const repo = createAccountsRepository(t.db);
    let lookups = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const accounts = createAccountsService({
      repo: { ...repo, findKeyByHash: async (...args) => { lookups += 1; const row = await repo.findKeyByHash(...args); if (lookups === 1) await gate; return row; } },
      clock: t.clock,
      keyChanges: notifier,
    });
    const racing = accounts.authenticate(key.secret);
    await new Promise((resolve) => setTimeout(resolve, 20));
    notifier.publishKey(key.keyId); // heard while the first lookup was out
    release();
    await racing;
    await accounts.authenticate(key.secret);
    expect(lookups).toBe(2);
    await accounts.authenticate(key.secret);
    expect(lookups).toBe(2);
  });

  it("refuses a key at once when another program revokes it through the embedded database's socket, or over NOTIFY on a server", async () => {
    const key = await t.makeKey();
    // The app's own service, with the notifier the app runs with on this database: on the embedded
    // database the container's (it hears the socket's other programs); on a server, LISTEN/NOTIFY.
    const server = t.database.kind === 'server';
    const notifier = server ? createPostgresNotifier(t.database.connection, t.database.pool, { error: () => {} }) : t.container.notifier;
    await notifier.start();
    try {
      const { accounts, lookups } = countingService(notifier);
      await accounts.authenticate(key.secret);
      await accounts.authenticate(key.secret);
      expect(lookups()).toBe(1);
      // Another program (psql, the admin CLI of another process): its own connection, its own name.
      // Still connected when the key is tried again: its statement is what is heard, not its leaving.
      const other = new pg.Client({ ...(t.database.connection as pg.ClientConfig), application_name: 'psql' });
      await other.connect();
      try {
        await other.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [key.keyId]);
        if (server) {
          // NOTIFY arrives a moment after the commit: the key is refused once it has, never accepted after.
          const deadline = Date.now() + 2000;
          while (lookups() === 1 && Date.now() < deadline) {
            await accounts.authenticate(key.secret).catch(() => undefined);
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
        }
        expect((await refusal(key.secret, accounts)).message).toMatch(/revoked/);
      } finally {
        await other.end();
      }
    } finally {
      if (server) await notifier.stop();
    }
  });

  it('on a server, stops trusting the cache when LISTEN stops, and takes nothing from before', async () => {
    if (t.database.kind !== 'server') return;
    const key = await t.makeKey();
    const notifier = createPostgresNotifier(t.database.connection, t.database.pool, { error: () => {} });
    await notifier.start();
    const { accounts, lookups } = countingService(notifier);
    await accounts.authenticate(key.secret);
    await accounts.authenticate(key.secret);
    expect(lookups()).toBe(1);
    await notifier.stop();
    await accounts.authenticate(key.secret);
    await accounts.authenticate(key.secret);
    expect(lookups()).toBe(3);
  });
});
