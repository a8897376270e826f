import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { AppError } from '../../src/lib/errors.ts';
import { generateApiKey } from '../../src/lib/api-key-format.ts';
import { createAccountsRepository, type AccountsRepository } from '../../src/modules/accounts/accounts.repository.ts';
import { createAccountsService } from '../../src/modules/accounts/accounts.service.ts';

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

/** An accounts service whose repository counts key lookups, to prove what is refused before any. */
function countingService() {
  const repo = createAccountsRepository(t.db);
  let lookups = 0;
  const counted: AccountsRepository = {
    ...repo,
    findKeyByHash: (...args) => {
      lookups += 1;
      return repo.findKeyByHash(...args);
    },
  };
  return { accounts: createAccountsService({ repo: counted, clock: t.clock }), lookups: () => lookups };
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
