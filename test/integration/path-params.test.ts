import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { signIn, type SignedInPerson } from '../helpers/people.ts';
import { ask, choiceDraft, fundedKey, NO_RATE_LIMITS, seedHeads, sleep, type Json } from '../helpers/questions.ts';
import { png, ticket, upload } from '../helpers/media.ts';

/**
 * Spec "Endpoints": a path id, code, token or slug that names nothing is 404 `not_found`, whatever
 * its format (issue 8, point 12): every operation of the served /openapi.json with a path
 * parameter is called with malformed values in each parameter in turn (the others real, so only
 * that one can be at fault), by a key holding every scope, and must answer 404 in the error
 * envelope (t.inject also checks it against the description). Body and query mistakes stay 400,
 * and the description lists 400 only for operations that take a body, a query or a header.
 */
const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

/** Values no route issues: wrong length, wrong characters, a wrong prefix, text a database refuses. */
const MALFORMED: Array<[string, string]> = [
  ['too short', 'ab'],
  ['a dash', 'q-x'],
  ['punctuation', 'abc!def$'],
  ['a space', 'x y'],
  ['a NUL byte', 'ab\u0000cd'],
  ['non-ASCII', 'ключ✓'],
  ['300 characters', 'a'.repeat(300)],
  ['an id of another kind', `drf_${'A'.repeat(20)}`],
  ['dots', '..x..'],
];

/**
 * A valid body for each operation that takes one, so that only the path can be at fault (a body
 * mistake is a 400 on its own, checked last below). A new operation with a body needs one here.
 */
const BODIES: Record<string, Json> = {
  replaceDraft: { type: 'ranking', text: 'Order these' },
  updateQuestion: { labels: ['x'] },
  addHeads: { n: 10 },
  updateProject: { name: 'Renamed' },
  flagAnswer: { reason: 'abusive' },
  pinAnswer: { pinned: true },
  disputeQuestion: { reason: 'This result is wrong in every possible way.' },
  shareQuestion: { public: false },
  createShareLink: {},
  answerThroughLink: { answer: { option: 0 }, nonce: '00000000-0000-4000-8000-000000000000' },
  startAnswerLink: { nonce: '00000000-0000-4000-8000-000000000000' },
  inviteMember: { email: 'invited@example.org', role: 'member' },
  setMemberRole: { role: 'owner' },
  updateWebhookEndpoint: { description: 'Paths' },
  sendWebhookTest: {},
  // The PUT of an upload takes the file's bytes; any body will do, the path is at fault first.
  putUpload: {},
  createExportLink: { format: 'pdf' },
};

interface Operation {
  operationId: string;
  method: string;
  path: string;
  params: string[];
  hasBody: boolean;
  /** Required query parameters and header parameters. */
  query: Record<string, string>;
  headers: string[];
  authenticated: boolean;
  /** Portal session only: called with a signed-in person's session. */
  portalOnly: boolean;
  responses: string[];
}

let t: TestApp;
let doc: Json;
let key: TestKey;
let person: SignedInPerson;
/** Real values for path parameters by name; `{id}` and `{code}` depend on the path (realFor). */
const real: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp({ env: { ...NO_RATE_LIMITS, LINK_ANSWERS_PER_IP: '100000', LINK_ANSWERS_PER_LINK: '100000' } });
  doc = (await t.inject('/openapi.json')).json();
  const heads = await seedHeads(t, 3);
  key = await fundedKey(t, 100_000);
  const question = await ask(t, key, choiceDraft({ n: 20, publicResults: true }));
  const outcome = await t.container.answers.record(question.id, { headId: heads[0].id, source: 'panel', tier: heads[0].tier }, { option: 0 });
  const { shareLink } = (await t.inject({ method: 'POST', url: `/v2/questions/${question.id}/share-links`, headers: key.auth, payload: {} })).json();
  const draft = (await t.inject({ method: 'POST', url: '/v1/drafts', headers: key.auth, payload: { type: 'ranking' } })).json();
  const project = (await t.inject({ method: 'POST', url: '/v1/projects', headers: key.auth, payload: { name: 'Paths' } })).json().project;
  person = await signIn(t);
  const madeKey = (await t.inject({ method: 'POST', url: '/v1/keys', headers: person.auth, payload: { name: 'Paths', scopes: ['account:read'], dailyCapCredits: null } })).json();
  const team = (await t.inject({ method: 'POST', url: '/v1/teams', headers: person.auth, payload: { name: 'Paths', currency: 'GBP' } })).json().account.accountId;
  const invitation = (await t.inject({ method: 'POST', url: `/v1/accounts/${team}/invitations`, headers: person.auth, payload: { email: 'someone@example.org', role: 'member' } })).json().invitation;
  const checkout = (await t.inject({ method: 'POST', url: '/v1/billing/checkout', headers: person.auth, payload: { pack: 'starter', currency: 'GBP', method: 'card' } })).json().checkout;
  const endpoint = (await t.inject({ method: 'POST', url: '/v1/webhooks/endpoints', headers: person.auth, payload: { url: 'http://127.0.0.1:9/paths', events: ['credits.low'] } })).json().endpoint;
  const delivery = (await t.inject({ method: 'POST', url: `/v1/webhooks/endpoints/${endpoint.id}/test`, headers: person.auth, payload: {} })).json().delivery;
  const exportLink = (await t.inject({ method: 'POST', url: `/v2/questions/${question.id}/exports`, headers: key.auth, payload: { format: 'png' } })).json().export;
  const uploaded = await upload(t, key, 'image', 'image/png', await png(8, 8));
  const pending = await ticket(t, key, 'image', 'image/png', 100);
  const audience = await t.container.audienceAdmin.create({ slug: 'path-testers', name: 'Path testers', description: 'For the path test.', category: 'tech', grades: [{ name: 'One', proves: 'Nothing.', payPence: 10 }] });
  await t.container.audienceAdmin.setStatus(audience.slug, 'open');
  Object.assign(real, {
    slug: audience.slug,
    file: uploaded.publicUrl.split('/').pop()!, uploadToken: pending.uploadUrl.split('/').pop()!,
    exportToken: exportLink.url.split('/').pop(),
    webhookEndpointId: endpoint.id, eventId: delivery.eventId,
    keyId: madeKey.key.id, sessionId: person.sessionId, teamId: team, personId: person.personId, invitationId: invitation.id, checkoutId: checkout.id,
    id: question.id, draftId: draft.id, projectId: project.id, ref: outcome.attestationRef!, linkId: shareLink.id,
    code: question.linkCode, publicCode: question.publicCode, token: shareLink.token,
  });
}, 120_000);
afterAll(async () => {
  await Promise.race([t?.close(), sleep(5_000)]);
});

function operations(): Operation[] {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => {
      const op = item[method] as Json;
      const parameters = (op.parameters ?? []) as Json[];
      const query: Record<string, string> = {};
      for (const p of parameters) if (p.in === 'query' && p.required) query[p.name] = '1';
      if (op.operationId === 'waitForQuestion') query.seconds = '1';
      return {
        operationId: op.operationId as string,
        method: method.toUpperCase(),
        path,
        params: parameters.filter((p) => p.in === 'path').map((p) => p.name as string),
        hasBody: Boolean(op.requestBody),
        query,
        headers: parameters.filter((p) => p.in === 'header').map((p) => p.name as string),
        authenticated: Boolean(op.security?.[0]?.bearerAuth),
        portalOnly: Boolean(op.security?.[0]?.portalSession),
        responses: Object.keys(op.responses ?? {}),
      };
    }),
  );
}

const withParams = () => operations().filter((op) => op.params.length > 0);

/** This operation's real value of each path parameter. */
function realFor(op: Operation): Record<string, string> {
  const values = { ...real };
  if (op.path.startsWith('/v1/drafts/')) values.id = real.draftId;
  if (op.path.startsWith('/v1/projects/')) values.id = real.projectId;
  if (op.path.startsWith('/v1/public/results/')) values.code = real.publicCode;
  if (op.path.startsWith('/v1/keys/')) values.id = real.keyId;
  if (op.path.startsWith('/v1/accounts/')) values.id = real.teamId;
  if (op.path.startsWith('/v1/invitations/')) values.id = real.invitationId;
  if (op.path.startsWith('/v1/billing/checkouts/')) values.id = real.checkoutId;
  if (op.path.startsWith('/v1/auth/sessions/')) values.id = real.sessionId;
  if (op.path.startsWith('/v1/webhooks/endpoints/')) values.id = real.webhookEndpointId;
  if (op.path.startsWith('/v1/uploads/')) values.token = real.uploadToken;
  return values;
}

function requestFor(op: Operation, values: Record<string, string>): InjectOptions {
  const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(values[name]));
  const search = new URLSearchParams(op.query).toString();
  return {
    method: op.method as InjectOptions['method'],
    url: search ? `${path}?${search}` : path,
    headers: { ...(op.portalOnly ? person.auth : op.authenticated ? key.auth : {}), 'idempotency-key': randomUUID() },
    ...(op.hasBody ? { payload: BODIES[op.operationId] ?? {} } : {}),
  };
}

describe('a malformed path parameter names nothing: 404 not_found on every route (point 12)', () => {
  it('the matrix covers the id-, code- and token-bearing routes', () => {
    const ids = withParams().map((op) => op.operationId);
    expect(ids.length).toBeGreaterThanOrEqual(25);
    expect(ids).toEqual(expect.arrayContaining(['getQuestion', 'getDraft', 'updateProject', 'getAnswerLink', 'answerThroughLink', 'startAnswerLink', 'getPublicResults', 'getSharedResults', 'flagAnswer', 'revokeShareLink', 'getHeatmap', 'getSharedHeatmap']));
    for (const op of withParams()) for (const name of op.params) expect(realFor(op)[name], `a real value for {${name}}`).toBeDefined();
    for (const op of withParams().filter((o) => o.hasBody)) expect(BODIES[op.operationId], `a body for ${op.operationId}`).toBeDefined();
  });

  it('each parameter in turn, with each malformed value, is a 404 in the envelope', async () => {
    const problems: string[] = [];
    let sent = 0;
    for (const op of withParams()) {
      const cases = [...op.params.map((name) => [name]), op.params]; // each alone, then all at once
      for (const names of cases) {
        for (const [label, value] of MALFORMED) {
          const values = { ...realFor(op), ...Object.fromEntries(names.map((name) => [name, value])) };
          const request = requestFor(op, values);
          sent += 1;
          try {
            const response = await t.inject(request); // checked against /openapi.json (R7.3)
            const error = response.json().error;
            if (response.statusCode !== 404 || error?.code !== 'not_found' || !error.requestId) {
              problems.push(`${op.operationId} {${names.join(', ')}} = ${label} → ${response.statusCode} ${response.body.slice(0, 160)}`);
            }
          } catch (error) {
            problems.push(`${op.operationId} {${names.join(', ')}} = ${label}: ${(error as Error).message.slice(0, 200)}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(sent).toBeGreaterThan(200);
  });

  it('the real values are accepted (so the 404s above are about the malformed one)', async () => {
    const problems: string[] = [];
    for (const op of withParams().filter((o) => o.method === 'GET' && !o.path.endsWith('.png'))) {
      const response = await t.inject(requestFor(op, realFor(op)));
      if (response.statusCode !== 200) problems.push(`${op.operationId} → ${response.statusCode} ${response.body.slice(0, 160)}`);
    }
    expect(problems).toEqual([]);
  });

  it('body and query mistakes on the same routes stay 400 validation_failed', async () => {
    const patch = await t.inject({ method: 'PATCH', url: `/v2/questions/${real.id}`, headers: key.auth, payload: { minAnswers: 'many' } });
    expect(patch.statusCode).toBe(400);
    expect(patch.json().error.code).toBe('validation_failed');
    const answers = await t.inject({ method: 'GET', url: `/v2/questions/${real.id}/answers?limit=0`, headers: key.auth });
    expect(answers.statusCode).toBe(400);
    expect(answers.json().error.details.validation[0].field).toBe('limit');
    const link = await t.inject({ method: 'POST', url: `/v1/public/link/${real.code}/answers`, payload: { answer: { option: 0 }, nonce: 'not-a-uuid' } });
    expect(link.statusCode).toBe(400);
  });

  it('/openapi.json lists 400 only where a body, query or header can be wrong, and 404 wherever the path names something', () => {
    for (const op of withParams()) {
      expect(op.responses, op.operationId).toContain('404');
      const takesInput = op.hasBody || Object.keys(op.query).length > 0 || op.headers.length > 0 || hasQuery(op);
      expect(op.responses.includes('400'), `${op.operationId} lists 400: ${!takesInput ? 'it takes no input that can be invalid' : 'it takes input'}`).toBe(takesInput);
    }
  });
});

function hasQuery(op: Operation): boolean {
  const item = (doc.paths as Record<string, Json>)[op.path][op.method.toLowerCase()] as Json;
  return ((item.parameters ?? []) as Json[]).some((p) => p.in === 'query');
}
