import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { generateApiKey } from '../../src/lib/api-key-format.ts';
import { SCOPES, type Scope } from '../../src/lib/actor.ts';
import { signIn } from '../helpers/people.ts';

/**
 * Authentication and authorisation over HTTP (spec "Authentication"; docs/api.md; R5.4, R5.5,
 * R6.1, R6.2): real authenticated routes, the route × scope matrix read from the served
 * /openapi.json, and account isolation.
 */
type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

let t: TestApp;
let doc: Json;
beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.app.inject('/openapi.json')).json();
});
afterAll(async () => {
  await t?.close();
});

function expectError(response: LightMyRequestResponse, status: number, code: string): Json {
  expect(response.statusCode, response.body).toBe(status);
  const { error } = response.json();
  expect(error.code).toBe(code);
  expect(typeof error.message).toBe('string');
  return error;
}

const balance = (headers: Record<string, string> = {}) => t.inject({ method: 'GET', url: '/v1/billing/balance', headers });

/** Changes the character at `index` to another base62 character. */
function mutate(text: string, index: number): string {
  return text.slice(0, index) + (text[index] === 'a' ? 'b' : 'a') + text.slice(index + 1);
}

describe('credentials on an authenticated route', () => {
  let key: TestKey;
  beforeAll(async () => {
    key = await t.makeKey(['account:read', 'questions:read', 'questions:write']);
  });

  it('a good key gets 200', async () => {
    const response = await balance(key.auth);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ credits: 0, reserved: 0, currency: 'GBP' });
  });

  it('the scheme name is case-insensitive, as HTTP says', async () => {
    expect((await balance({ authorization: `bearer ${key.secret}` })).statusCode).toBe(200);
  });

  it('no Authorization header → 401 unauthorized', async () => {
    expectError(await balance(), 401, 'unauthorized');
  });

  it.each([
    ['Basic credentials', () => `Basic ${Buffer.from('user:pass').toString('base64')}`],
    ['the key without "Bearer"', () => key.secret],
    ['"Bearer" and nothing', () => 'Bearer '],
    ['a token with a space in it', () => `Bearer ${key.secret} extra`],
  ])('%s → 401 unauthorized', async (_label, header) => {
    expectError(await balance({ authorization: header() }), 401, 'unauthorized');
  });

  it.each([
    ['a word', () => 'Bearer hello'],
    ['a short key', () => 'Bearer hc_live_abc123'],
    ['an unknown prefix', () => `Bearer sk_live_${'a'.repeat(49)}`],
    ['the key with a character changed (bad checksum)', () => `Bearer ${mutate(key.secret, 20)}`],
    ['the key with its checksum changed', () => `Bearer ${mutate(key.secret, key.secret.length - 1)}`],
    ['the live key relabelled as test', () => `Bearer ${key.secret.replace('hc_live_', 'hc_test_')}`],
    ['the key with a character added', () => `Bearer ${key.secret}x`],
  ])('%s → 401 unauthorized', async (_label, header) => {
    const error = expectError(await balance({ authorization: header() }), 401, 'unauthorized');
    expect(error.message).toMatch(/malformed/i);
  });

  it('a well-formed key that was never issued → 401 unauthorized', async () => {
    for (const mode of ['live', 'test'] as const) {
      const error = expectError(await balance({ authorization: `Bearer ${generateApiKey(mode)}` }), 401, 'unauthorized');
      expect(error.message).toMatch(/not known/i);
    }
  });

  it('a revoked key → 401 on the very next request', async () => {
    const victim = await t.makeKey(['account:read']);
    expect((await balance(victim.auth)).statusCode).toBe(200);
    await t.container.accounts.revokeKey(victim.keyId);
    const error = expectError(await balance(victim.auth), 401, 'unauthorized');
    expect(error.message).toMatch(/revoked/i);
    // Another key of the same account still works.
    const sibling = await t.makeKey(['account:read'], null, { accountId: victim.accountId });
    expect((await balance(sibling.auth)).statusCode).toBe(200);
  });

  it('a key without the scope → 403 insufficient_scope naming the scope', async () => {
    const readOnly = await t.makeKey(['questions:read']);
    const error = expectError(await balance(readOnly.auth), 403, 'insufficient_scope');
    expect(error.details).toEqual({ scope: 'account:read' });
    const writeError = expectError(await t.inject({ method: 'POST', url: '/v1/drafts', headers: readOnly.auth, payload: { type: 'ranking' } }), 403, 'insufficient_scope');
    expect(writeError.details).toEqual({ scope: 'questions:write' });
    expect((await t.inject({ method: 'GET', url: '/v1/drafts', headers: readOnly.auth })).statusCode).toBe(200);
  });

  it('records lastUsedAt when the key is used', async () => {
    const fresh = await t.makeKey(['account:read']);
    const lastUsed = async () => (await t.container.accounts.listKeys(fresh.accountId)).find((k) => k.id === fresh.keyId)!.lastUsedAt;
    expect(await lastUsed()).toBeNull();
    t.clock.advance(5 * 60_000);
    const usedAt = t.clock.now().toISOString();
    expect((await balance(fresh.auth)).statusCode).toBe(200);
    expect(await lastUsed()).toBe(usedAt);
    t.clock.advance(2 * 60_000);
    expect((await balance(fresh.auth)).statusCode).toBe(200);
    expect(await lastUsed()).toBe(t.clock.now().toISOString());
  });

  it('the secret never appears in key listings', async () => {
    const listed = await t.container.accounts.listKeys(key.accountId);
    expect(JSON.stringify(listed)).not.toContain(key.secret.slice(14, -6));
    expect(listed.find((k) => k.id === key.keyId)!.prefix).toBe(`${key.secret.slice(0, 14)}…${key.secret.slice(-4)}`);
  });
});

interface Operation {
  method: string;
  path: string;
  scope: Scope | null;
  /** "Portal session only" (security `portalSession`): a signed-in person, never a key. */
  portalOnly: boolean;
  hasBody: boolean;
}

function operations(): Operation[] {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => {
      const op = item[method] as Json;
      // security[0] is the requirement a client must meet; `{}` (or none) means no credential.
      const scope = (op.security?.[0]?.bearerAuth?.[0] as Scope | undefined) ?? null;
      return { method: method.toUpperCase(), path, scope, portalOnly: Boolean(op.security?.[0]?.portalSession), hasBody: Boolean(op.requestBody) };
    }),
  );
}

/** A request to the operation: unknown ids in the path and a plausible body (a shape error is fine; 401/403 come first). */
function requestFor(op: Operation, headers: Record<string, string>): InjectOptions {
  const url = op.path.replace(/\{[^}]+\}/g, 'zz_unknown_id');
  const request: InjectOptions = { method: op.method as InjectOptions['method'], url, headers };
  if (op.hasBody) {
    request.payload =
      op.path === '/v1/billing/estimate' ? { draft: { type: 'yes_mostly_no', text: 'Q?' } } : op.path.startsWith('/v1/drafts') ? { type: 'ranking' } : {};
  }
  return request;
}

describe('route × scope matrix (R6.2), from the served /openapi.json', () => {
  it('covers the known authenticated routes and declares only real scopes', () => {
    const authenticated = operations().filter((op) => op.scope);
    expect(authenticated.map((op) => `${op.method} ${op.path}`)).toEqual(
      expect.arrayContaining([
        'GET /v1/billing/balance',
        'GET /v1/billing/ledger',
        'GET /v1/drafts',
        'POST /v1/drafts',
        'GET /v1/drafts/{id}',
        'PUT /v1/drafts/{id}',
        'DELETE /v1/drafts/{id}',
      ]),
    );
    for (const op of authenticated) expect(SCOPES, `${op.method} ${op.path}`).toContain(op.scope);
  });

  it('every authenticated route: 401 without a credential, 403 with every scope but its own, not 401/403 with its own', async () => {
    const problems: string[] = [];
    const keys = new Map<string, TestKey>();
    const keyWith = async (scopes: Scope[]) => {
      const name = scopes.join(',');
      if (!keys.has(name)) keys.set(name, await t.makeKey(scopes));
      return keys.get(name)!;
    };
    for (const op of operations().filter((o) => o.scope)) {
      const where = `${op.method} ${op.path} (${op.scope})`;
      const anonymous = await t.inject(requestFor(op, {}));
      if (anonymous.statusCode !== 401 || anonymous.json().error.code !== 'unauthorized') problems.push(`${where} without a credential → ${anonymous.statusCode}`);

      const others = await keyWith(SCOPES.filter((s) => s !== op.scope));
      const refused = await t.inject(requestFor(op, others.auth));
      const body = refused.json();
      if (refused.statusCode !== 403 || body.error?.code !== 'insufficient_scope' || body.error?.details?.scope !== op.scope) {
        problems.push(`${where} with every other scope → ${refused.statusCode} ${refused.body.slice(0, 200)}`);
      }

      const own = await keyWith([op.scope!]);
      const allowed = await t.inject(requestFor(op, own.auth));
      if (allowed.statusCode === 401 || (allowed.statusCode === 403 && allowed.json().error?.code === 'insufficient_scope')) {
        problems.push(`${where} with its scope → ${allowed.statusCode} ${allowed.body.slice(0, 200)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('every portal-session-only route: 401 without a credential, 403 for a key with every scope, not 401/403 for a session', async () => {
    const portalOps = operations().filter((o) => o.portalOnly);
    expect(portalOps.map((op) => `${op.method} ${op.path}`)).toEqual(expect.arrayContaining(['GET /v1/keys', 'POST /v1/keys', 'GET /v1/me', 'GET /v1/auth/sessions']));
    const everything = await t.makeKey(SCOPES);
    const problems: string[] = [];
    for (const op of portalOps) {
      const where = `${op.method} ${op.path}`;
      const anonymous = await t.inject(requestFor(op, {}));
      if (anonymous.statusCode !== 401) problems.push(`${where} without a credential → ${anonymous.statusCode}`);
      const byKey = await t.inject(requestFor(op, everything.auth));
      if (byKey.statusCode !== 403 || byKey.json().error?.details?.credential !== 'portal_session') problems.push(`${where} with a key → ${byKey.statusCode} ${byKey.body.slice(0, 200)}`);
      // A session of its own for each (one of these routes signs out).
      const person = await signIn(t);
      const bySession = await t.inject(requestFor(op, person.auth));
      if (bySession.statusCode === 401 || bySession.statusCode === 403) problems.push(`${where} with a session → ${bySession.statusCode} ${bySession.body.slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
  });

  it('public routes answer without a credential and ignore a bad one', async () => {
    const publicOps = operations().filter((op) => !op.scope && !op.portalOnly && (op.method === 'GET' || op.path === '/v1/billing/estimate'));
    expect(publicOps.map((op) => `${op.method} ${op.path}`)).toEqual(
      expect.arrayContaining(['GET /v1/config', 'GET /v1/templates', 'GET /v1/public/countries', 'GET /v1/tags', 'GET /v1/public/stats', 'POST /v1/billing/estimate']),
    );
    const revoked = await t.makeKey(['account:read']);
    await t.container.accounts.revokeKey(revoked.keyId);
    const noScopes = await t.makeKey(['questions:read']);
    const problems: string[] = [];
    for (const op of publicOps) {
      if (op.path.includes('{')) continue;
      for (const headers of [{}, { authorization: 'Basic abc' }, { authorization: 'Bearer hc_live_nonsense' }, revoked.auth, noScopes.auth]) {
        const response = await t.inject(requestFor(op, headers));
        if (response.statusCode !== 200) problems.push(`${op.method} ${op.path} with ${JSON.stringify(headers).slice(0, 40)} → ${response.statusCode}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('drafts belong to their account (R5.4)', () => {
  it("another account's draft id is 404 on GET, PUT and DELETE, and stays untouched", async () => {
    const owner = await t.makeKey(['questions:read', 'questions:write']);
    const stranger = await t.makeKey(['questions:read', 'questions:write']);
    const created = await t.inject({ method: 'POST', url: '/v1/drafts', headers: owner.auth, payload: { type: 'single_choice', text: 'Mine' } });
    expect(created.statusCode).toBe(200);
    const { id } = created.json();

    expectError(await t.inject({ method: 'GET', url: `/v1/drafts/${id}`, headers: stranger.auth }), 404, 'not_found');
    expectError(await t.inject({ method: 'PUT', url: `/v1/drafts/${id}`, headers: stranger.auth, payload: { type: 'free_text', text: 'Stolen' } }), 404, 'not_found');
    expectError(await t.inject({ method: 'DELETE', url: `/v1/drafts/${id}`, headers: stranger.auth }), 404, 'not_found');
    expect((await t.inject({ method: 'GET', url: '/v1/drafts', headers: stranger.auth })).json().drafts).toEqual([]);

    const mine = await t.inject({ method: 'GET', url: `/v1/drafts/${id}`, headers: owner.auth });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().draft).toEqual({ type: 'single_choice', text: 'Mine' });
  });

  it("the same 404 as an id that does not exist, so ids cannot be probed", async () => {
    const owner = await t.makeKey(['questions:read', 'questions:write']);
    const stranger = await t.makeKey(['questions:read']);
    const { id } = (await t.inject({ method: 'POST', url: '/v1/drafts', headers: owner.auth, payload: { type: 'ranking' } })).json();
    const theirs = await t.inject({ method: 'GET', url: `/v1/drafts/${id}`, headers: stranger.auth });
    const nobodys = await t.inject({ method: 'GET', url: '/v1/drafts/drf_doesNotExist0000000', headers: stranger.auth });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().error.message).toBe(nobodys.json().error.message);
  });
});

describe('ids in the path', () => {
  // R5.4, R7.3 and the spec's "Endpoints": an id that is not one of this account's names nothing,
  // whatever its format, so it is a 404, never a 500 — including ids with bytes a database refuses
  // (NUL, %00). A well-formed id is looked up only after the body is validated, and these requests
  // carry no valid body, so it may meet a 400 first. A path that is not a valid URL at all (a
  // broken percent-encoding) names nothing either: a 404 from the router, before any route is chosen.
  it.each([
    ['a well-formed id that does not exist', 'zz_unknown_id', [400, 404]],
    ['an id with a NUL byte', 'drf_%00', [404]],
    ['an id that is only a NUL byte', '%00', [404]],
    ['an id with a percent-encoded slash and dots', '..%2F..%2Fetc', [404]],
    ['an id longer than the router takes (in the error envelope, not a bare 414)', 'x'.repeat(600), [404]],
    ['an id with a broken percent-encoding', '%E0%A4%A', [404]],
  ])('every id-bearing route answers %s with %j', async (_label, id, statuses) => {
    const key = await t.makeKey([...SCOPES]);
    const person = await signIn(t);
    const problems: string[] = [];
    for (const op of operations().filter((o) => o.path.includes('{'))) {
      const request = requestFor(op, { ...(op.portalOnly ? person.auth : key.auth), 'idempotency-key': `k-${op.method}-${op.path}` });
      request.url = op.path.replace(/\{[^}]+\}/g, id);
      const response = await t.app.inject(request);
      const envelope = (response.json() as { error?: { code?: string; requestId?: string } }).error;
      if (!statuses.includes(response.statusCode) || !envelope?.code || !envelope.requestId) {
        problems.push(`${op.method} ${request.url.slice(0, 80)} → ${response.statusCode} ${response.body.slice(0, 120)}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('request bodies refuse unknown properties (R5.5)', () => {
  it.each([
    ['an unknown field', { type: 'ranking', colour: 'red' }, 'colour'],
    ['an owner', { type: 'ranking', accountId: 'acc_someone_else' }, 'accountId'],
    ['a price', { type: 'ranking', creditsPerAnswer: 1 }, 'creditsPerAnswer'],
    ['a nested unknown field', { type: 'ranking', targeting: { countries: [], tags: [], everyone: true } }, 'targeting.everyone'],
  ])('a draft with %s → 400 and nothing stored', async (_label, payload, field) => {
    const key = await t.makeKey(['questions:read', 'questions:write']);
    const response = await t.inject({ method: 'POST', url: '/v1/drafts', headers: key.auth, payload });
    const error = expectError(response, 400, 'validation_failed');
    expect(error.details.validation).toEqual(expect.arrayContaining([expect.objectContaining({ field, code: 'not_allowed' })]));
    expect((await t.inject({ method: 'GET', url: '/v1/drafts', headers: key.auth })).json().drafts).toEqual([]);
    const stored = await t.db.selectFrom('drafts').select('id').where('account_id', '=', key.accountId).execute();
    expect(stored).toEqual([]);
  });

  it('a PUT with an unknown field → 400 and the stored draft is unchanged', async () => {
    const key = await t.makeKey(['questions:read', 'questions:write']);
    const { id } = (await t.inject({ method: 'POST', url: '/v1/drafts', headers: key.auth, payload: { type: 'ranking', text: 'Before' } })).json();
    expectError(await t.inject({ method: 'PUT', url: `/v1/drafts/${id}`, headers: key.auth, payload: { type: 'ranking', text: 'After', id: 'drf_other' } }), 400, 'validation_failed');
    expect((await t.inject({ method: 'GET', url: `/v1/drafts/${id}`, headers: key.auth })).json().draft).toEqual({ type: 'ranking', text: 'Before' });
  });

  it('a query parameter the route does not know → 400', async () => {
    const key = await t.makeKey(['account:read']);
    const error = expectError(await t.inject({ method: 'GET', url: '/v1/billing/ledger?accountId=acc_x', headers: key.auth }), 400, 'validation_failed');
    expect(error.details.validation).toEqual([expect.objectContaining({ field: 'accountId', code: 'not_allowed' })]);
  });
});
