import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { signIn, type SignedInPerson } from '../helpers/people.ts';
import { answerAll, ask, choiceDraft, expectReconciled, grant, seedHeads, sleep, type Head, type Json } from '../helpers/questions.ts';

/**
 * R5.4 as a matrix: every operation of the served /openapi.json that has a path parameter and
 * needs a credential, given the real ids of another account (a live question with answers, a
 * pin, a flag, a public page and share links; a completed one; a click test; a follow-up; a
 * draft; a project; and, the owner being a team, its members, an invitation, a key, a checkout
 * and its person's session), by a stranger holding every scope — a key of another account, and a
 * signed-in person of another account with their portal session (issue 10: sessions and teams) —
 * answers 404 `not_found`, the same answer as for an id that does not exist, and changes nothing.
 * Portal-session-only operations are tried with the stranger's session (a key is refused before
 * any id is looked at).
 *
 * Operations are enumerated as in auth-http.test.ts, so new routes are picked up: one with a
 * request body needs a recipe in BODIES, one with a new kind of path parameter a recipe in
 * subjectsFor(); without one the test fails and names the operation.
 */
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** A valid body for every operation that takes one, so that validation cannot answer 400 before the 404. */
const BODIES: Record<string, Json> = {
  replaceDraft: { type: 'single_choice', text: 'Taken over', options: [{ label: 'A' }, { label: 'B' }] },
  updateQuestion: { minAnswers: 1, labels: ['taken'], archived: true, bookmarked: true, externalRef: 'taken-1', projectId: null },
  addHeads: { n: 10 },
  updateProject: { name: 'Taken over', description: 'x', goal: 'x', bookmarked: true, archived: true },
  flagAnswer: { reason: 'abusive', note: 'Taken over' },
  pinAnswer: { pinned: false },
  disputeQuestion: { reason: 'This result is wrong in every possible way.' },
  shareQuestion: { public: false },
  createShareLink: { expiresInDays: 5, label: 'Taken over' },
  inviteMember: { email: 'taken-over@example.org', role: 'owner' },
  setMemberRole: { role: 'member' },
  updateWebhookEndpoint: { url: 'http://127.0.0.1:9/taken-over', events: ['credits.low'], description: 'Taken over', enabled: false },
  sendWebhookTest: { type: 'credits.low' },
  createExportLink: { format: 'pdf' },
};

/** Query parameters some operations get in every request (waitForQuestion must not wait 25 s). */
const QUERIES: Record<string, Record<string, string>> = {
  waitForQuestion: { seconds: '1' },
};

interface Operation {
  operationId: string;
  method: string;
  path: string;
  params: string[];
  hasBody: boolean;
  /** Required query parameters with a value drawn from their schema. */
  query: Record<string, string>;
  /** Portal session only: tried with the stranger's session, never a key. */
  portalOnly: boolean;
}

let t: TestApp;
let doc: Json;
let owner: TestKey;
let stranger: TestKey;
/** The person who made the owner's team, and a person of another account. */
let ownerPerson: SignedInPerson;
let strangerPerson: SignedInPerson;
let heads: Head[];

/** The owner's ids, by kind. */
const ids = {
  live: { id: '', refs: [] as string[], linkId: '' },
  complete: { id: '', refs: [] as string[], linkId: '' },
  click: { id: '', refs: [] as string[] },
  followUp: '',
  audienceQuestion: '',
  draft: '',
  project: '',
  team: '',
  invitation: '',
  key: '',
  checkout: '',
  connection: '',
  webhook: '',
  webhookEvent: '',
};

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_PER_KEY: '100000', RATE_LIMIT_PER_IP: '100000' } });
  doc = (await t.app.inject('/openapi.json')).json();
  heads = await seedHeads(t, 40);
  // The owner is a team: made by a person, with a key made in its name on the Developers API.
  ownerPerson = await signIn(t);
  ids.team = (await t.inject({ method: 'POST', url: '/v1/teams', headers: ownerPerson.auth, payload: { name: 'Owners', currency: 'GBP' } })).json().account.accountId;
  const made = (await t.inject({ method: 'POST', url: '/v1/keys', headers: ownerPerson.as(ids.team), payload: { name: 'owner key', scopes: ['questions:read', 'questions:write', 'templates:read', 'account:read'], dailyCapCredits: null } })).json();
  owner = { accountId: ids.team, keyId: made.key.id, secret: made.secret, auth: { authorization: `Bearer ${made.secret}` } };
  ids.key = made.key.id;
  ids.invitation = (await t.inject({ method: 'POST', url: `/v1/accounts/${ids.team}/invitations`, headers: ownerPerson.auth, payload: { email: 'invited@example.org', role: 'member' } })).json().invitation.id;
  ids.checkout = (await t.inject({ method: 'POST', url: '/v1/billing/checkout', headers: ownerPerson.as(ids.team), payload: { pack: 'starter', currency: 'GBP', method: 'bank_transfer' } })).json().checkout.id;
  // An app the owner connected to the team with OAuth (as the consent page records it).
  ids.connection = await t.container.connections.create({
    personId: ownerPerson.personId, accountId: ids.team, clientId: 'ownership-client', clientName: 'Owner agent', grantId: 'ownership-grant',
    scopes: ['questions:read'], dailyCapCredits: 100, autoApproveCredits: 0,
  });
  // A webhook endpoint of the team, with one delivery (a test event) in its log.
  ids.webhook = (await t.inject({ method: 'POST', url: '/v1/webhooks/endpoints', headers: ownerPerson.as(ids.team), payload: { url: 'http://127.0.0.1:9/owner', events: ['question.completed'] } })).json().endpoint.id;
  ids.webhookEvent = (await t.inject({ method: 'POST', url: `/v1/webhooks/endpoints/${ids.webhook}/test`, headers: ownerPerson.as(ids.team), payload: {} })).json().delivery.eventId;
  stranger = await t.makeKey();
  strangerPerson = await signIn(t);
  await grant(t, owner.accountId, 100_000);
  await grant(t, stranger.accountId, 100_000);

  const ok = async (request: InjectOptions, status = 200): Promise<Json> => {
    const response = await t.inject({ ...request, headers: { ...owner.auth, ...(request.headers as Record<string, string>) } });
    expect(response.statusCode, `${request.method} ${request.url}: ${response.body}`).toBe(status);
    return response.json();
  };

  ids.project = (await ok({ method: 'POST', url: '/v1/projects', payload: { name: 'Launch', goal: 'Pick a name' } }, 201)).project.id;
  ids.draft = (await ok({ method: 'POST', url: '/v1/drafts', payload: { type: 'ranking', text: 'Order these', shownAs: 'Ada Labs' } })).id;

  // Live, in the project, with written reasons, a pinned and a flagged answer, a public page,
  // a share link, and a follow-up waiting for it.
  const live = await ask(t, owner, { draft: choiceDraft({ n: 20, reason: 'optional' }), projectId: ids.project, labels: ['naming'], then: [{ text: 'Why that one?' }] });
  ids.live.id = live.id;
  ids.live.refs = (await answerAll(t, live.id, heads.slice(0, 4), (i) => ({ option: i % 2, reason: `Because ${i} it reads well` }))).map((o) => o.attestationRef!);
  await ok({ method: 'POST', url: `/v2/questions/${live.id}/answers/${ids.live.refs[0]}/pin`, payload: { pinned: true } });
  await ok({ method: 'POST', url: `/v2/questions/${live.id}/answers/${ids.live.refs[1]}/flag`, payload: { reason: 'low_effort' } }, 201);
  await ok({ method: 'POST', url: `/v2/questions/${live.id}/share`, payload: { public: true } });
  ids.live.linkId = (await ok({ method: 'POST', url: `/v2/questions/${live.id}/share-links`, payload: { label: 'Board' } }, 201)).shareLink.id;
  ids.followUp = (await t.db.selectFrom('questions').select('id').where('parent_id', '=', live.id).executeTakeFirstOrThrow()).id;

  // Complete (n answers), shared, with a share link: disputable by its owner.
  const complete = await ask(t, owner, choiceDraft({ n: 10 }));
  ids.complete.id = complete.id;
  ids.complete.refs = (await answerAll(t, complete.id, heads.slice(10, 20))).map((o) => o.attestationRef!);
  ids.complete.linkId = (await ok({ method: 'POST', url: `/v2/questions/${complete.id}/share-links`, payload: {} }, 201)).shareLink.id;

  // A private audience the owner's account and team sponsor, and a question asked of it (issue 14).
  await t.container.audienceAdmin.create({
    slug: 'owner-panel', name: 'Owner panel', description: "The owner's own testers.", category: 'tech', private: true,
    grades: [{ name: 'Tester', proves: 'Signed up to test.', payPence: 20 }],
  });
  await t.container.audienceAdmin.setStatus('owner-panel', 'open');
  for (const account of [owner.accountId, ids.team]) await t.container.audienceAdmin.sponsor('owner-panel', account);
  for (const head of heads.slice(30, 40)) await t.container.audienceAdmin.grade('owner-panel', head.id, 1);
  const audienceDraft = (await ok({ method: 'POST', url: '/v1/drafts', payload: { ...choiceDraft(), interestAudienceId: 'owner-panel' } })).id;
  ids.audienceQuestion = (await ok({ method: 'POST', url: '/v2/questions', headers: { 'idempotency-key': randomUUID() }, payload: { fromDraftId: audienceDraft, draft: { type: 'single_choice', text: choiceDraft().text } } }, 201)).question.id;
  await answerAll(t, ids.audienceQuestion, heads.slice(30, 32));

  // A click test with taps (heat grid, hotspots).
  const click = await ask(t, owner, { type: 'click_test', text: 'Where would you tap to pay?', stimulus: { imageUrl: 'https://img.example.com/pay.png' }, clickTest: { maxTaps: 2 }, n: 10 });
  ids.click.id = click.id;
  ids.click.refs = (await answerAll(t, click.id, heads.slice(20, 24), (i) => ({ taps: [{ x: 0.1 * (i + 1), y: 0.5 }] }))).map((o) => o.attestationRef!);
});
afterAll(async () => {
  await Promise.race([t?.close(), sleep(5_000)]);
});

function operations(): Operation[] {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => {
      const op = item[method] as Json;
      const parameters = [...((item.parameters as Json[]) ?? []), ...((op.parameters as Json[]) ?? [])];
      const query: Record<string, string> = {};
      for (const p of parameters) if (p.in === 'query' && p.required) query[p.name] = sample(p.schema ?? {});
      return {
        operationId: op.operationId as string,
        method: method.toUpperCase(),
        path,
        params: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]),
        hasBody: Boolean(op.requestBody),
        query,
        // security[0] is the requirement a client must meet; `{}` (or none) means public.
        authenticated: Boolean(op.security?.[0]?.bearerAuth || op.security?.[0]?.portalSession),
        portalOnly: Boolean(op.security?.[0]?.portalSession),
      };
    }).filter((op) => op.authenticated && op.params.length > 0),
  );
}

/** A plausible value for a required query parameter. */
function sample(schema: Json): string {
  if (Array.isArray(schema.enum)) return String(schema.enum[0]);
  if (schema.const !== undefined) return String(schema.const);
  if (schema.type === 'integer' || schema.type === 'number') return String(schema.minimum ?? 1);
  if (schema.type === 'boolean') return 'true';
  if (schema.format === 'uuid') return randomUUID();
  return 'x';
}

/** The owner's real ids to put in each path parameter; null when this kind of path has no recipe yet. */
function subjectsFor(op: Operation): Array<Record<string, string>> | null {
  if (op.path.startsWith('/v2/questions/{id}')) {
    return [
      { id: ids.live.id, ref: ids.live.refs[2], linkId: ids.live.linkId },
      { id: ids.live.id, ref: ids.live.refs[1], linkId: ids.live.linkId }, // the flagged answer
      { id: ids.complete.id, ref: ids.complete.refs[0], linkId: ids.complete.linkId },
      { id: ids.click.id, ref: ids.click.refs[0], linkId: ids.live.linkId },
      { id: ids.followUp, ref: ids.live.refs[0], linkId: ids.live.linkId },
      { id: ids.audienceQuestion, ref: ids.live.refs[0], linkId: ids.live.linkId },
    ];
  }
  if (op.path.startsWith('/v1/drafts/{id}')) return [{ id: ids.draft }];
  if (op.path.startsWith('/v1/projects/{id}')) return [{ id: ids.project }];
  if (op.path.startsWith('/v1/accounts/{id}')) return [{ id: ids.team, personId: ownerPerson.personId, invitationId: ids.invitation }];
  if (op.path.startsWith('/v1/invitations/{id}')) return [{ id: ids.invitation }];
  if (op.path.startsWith('/v1/keys/{id}')) return [{ id: ids.key }];
  if (op.path.startsWith('/v1/connections/{id}')) return [{ id: ids.connection }];
  if (op.path.startsWith('/v1/auth/sessions/{id}')) return [{ id: ownerPerson.sessionId }];
  if (op.path.startsWith('/v1/billing/checkouts/{id}')) return [{ id: ids.checkout }];
  if (op.path.startsWith('/v1/webhooks/endpoints/{id}')) return [{ id: ids.webhook, eventId: ids.webhookEvent }];
  return null;
}

/** Who calls: the owner (their key; their person's session on portal-only routes) or a stranger. */
interface Caller {
  auth: Record<string, string>;
}

/** The credentials a stranger tries an operation with: their key and their session, or only the session where keys are refused. */
const strangersFor = (op: Operation): Caller[] => (op.portalOnly ? [strangerPerson] : [stranger, strangerPerson]);
const ownerFor = (op: Operation): Caller => (op.portalOnly ? { auth: ownerPerson.as(ids.team) } : owner);

function requestFor(op: Operation, values: Record<string, string>, key: Caller): InjectOptions {
  const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(values[name]));
  const query = new URLSearchParams({ ...op.query, ...QUERIES[op.operationId] }).toString();
  const request: InjectOptions = {
    method: op.method as InjectOptions['method'],
    url: query ? `${path}?${query}` : path,
    headers: { ...key.auth, 'idempotency-key': randomUUID() },
  };
  if (op.hasBody) request.payload = BODIES[op.operationId];
  return request;
}

/** The same id with its tail changed: well-formed, and nobody's. */
const nobodys = (id: string) => id.slice(0, -4) + (id.endsWith('zzzz') ? 'yyyy' : 'zzzz');

async function send(request: InjectOptions): Promise<LightMyRequestResponse | string> {
  try {
    return await t.inject(request); // validated against /openapi.json (R7.3)
  } catch (error) {
    return `does not match /openapi.json: ${(error as Error).message.slice(0, 300)}`;
  }
}

/** Every row of every table, as JSON, leaving out the stranger's own rows (its key's last use, its grant). */
async function snapshot(): Promise<Record<string, string[]>> {
  const tables = await sql<{ table_name: string }>`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`.execute(t.db);
  const out: Record<string, string[]> = {};
  for (const { table_name: table } of tables.rows) {
    const rows = await sql<Json>`SELECT * FROM ${sql.table(table)}`.execute(t.db);
    out[table] = rows.rows
      .filter((row) => ![stranger.accountId, strangerPerson.personalAccountId].includes(row.account_id) && ![stranger.accountId, strangerPerson.personalAccountId, strangerPerson.personId].includes(row.id) && row.person_id !== strangerPerson.personId)
      .map((row) => JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)))
      .sort();
  }
  return out;
}

/** The owner's data as the owner reads it through the API. */
async function ownerView(): Promise<Json> {
  const get = async (url: string) => {
    const response = await t.inject({ method: 'GET', url, headers: owner.auth });
    return { status: response.statusCode, body: response.json() };
  };
  const view: Json = {};
  for (const id of [ids.live.id, ids.complete.id, ids.click.id, ids.followUp, ids.audienceQuestion]) {
    view[id] = {
      question: await get(`/v2/questions/${id}`),
      result: await get(`/v2/questions/${id}/result`),
      answers: await get(`/v2/questions/${id}/answers`),
      shareLinks: await get(`/v2/questions/${id}/share-links`),
    };
  }
  view.questions = await get('/v2/questions');
  view.draft = await get(`/v1/drafts/${ids.draft}`);
  view.projects = await get('/v1/projects');
  view.balance = await get('/v1/billing/balance');
  view.ledger = await get('/v1/billing/ledger');
  return view;
}

describe("another account's ids (R5.4)", () => {
  it('the matrix covers the id-bearing routes we know of', () => {
    const known = operations().map((op) => op.operationId);
    expect(known).toEqual(
      expect.arrayContaining([
        'getDraft', 'replaceDraft', 'deleteDraft',
        'getQuestion', 'updateQuestion', 'cancelQuestion', 'addHeads', 'waitForQuestion',
        'updateProject', 'deleteProject',
        'flagAnswer', 'pinAnswer', 'disputeQuestion', 'getDispute', 'shareQuestion',
        'listShareLinks', 'createShareLink', 'revokeShareLink',
        'getQuestionInsights', 'refreshQuestionInsights', 'getResult', 'listAnswers',
        'listMembers', 'inviteMember', 'withdrawInvitation', 'setMemberRole', 'removeMember',
        'acceptInvitation', 'declineInvitation', 'revokeKey', 'revokeSession', 'getCheckout',
      ]),
    );
    // Public routes are not in it: their codes and tokens are the credential.
    expect(known).not.toContain('getAnswerLink');
    expect(known).not.toContain('getPublicResults');
  });

  it('every recipe is for a real operation', () => {
    const known = new Set(operations().map((op) => op.operationId));
    for (const id of [...Object.keys(BODIES), ...Object.keys(QUERIES)]) expect(known, id).toContain(id);
  });

  it("the owner's ids are real: the owner reads each of them", async () => {
    const problems: string[] = [];
    for (const op of operations().filter((o) => o.method === 'GET')) {
      const subjects = subjectsFor(op) ?? [];
      const statuses: number[] = [];
      for (const values of subjects) {
        const response = await send(requestFor(op, values, ownerFor(op)));
        if (typeof response === 'string') problems.push(`${op.operationId} as the owner: ${response}`);
        else statuses.push(response.statusCode);
      }
      if (!statuses.some((s) => s >= 200 && s < 300)) problems.push(`${op.operationId}: the owner never got a 2xx (${statuses.join(', ')})`);
    }
    expect(problems).toEqual([]);
  });

  it("a stranger with every scope gets 404 not_found for each, as for an id nobody has, and nothing changes", async () => {
    const viewBefore = await ownerView();
    const before = await snapshot();
    const strangerBalance = (await t.inject({ method: 'GET', url: '/v1/billing/balance', headers: stranger.auth })).json();

    const problems: string[] = [];
    let checked = 0;
    for (const op of operations()) {
      const where = `${op.method} ${op.path} (${op.operationId})`;
      if (op.hasBody && !BODIES[op.operationId]) {
        problems.push(`${where}: no body recipe in BODIES`);
        continue;
      }
      const subjects = subjectsFor(op);
      if (!subjects) {
        problems.push(`${where}: no id recipe in subjectsFor()`);
        continue;
      }
      for (const values of subjects) {
        const missing = op.params.filter((p) => !values[p]);
        if (missing.length > 0) {
          problems.push(`${where}: no value for {${missing.join('}, {')}}`);
          continue;
        }
        for (const who of strangersFor(op)) {
          const by = who === stranger ? 'key' : 'session';
          const request = requestFor(op, values, who);
          const response = await send(request);
          checked += 1;
          if (typeof response === 'string') {
            problems.push(`${op.method} ${request.url} (${by}): ${response}`);
            continue;
          }
          if (response.statusCode !== 404 || response.json().error?.code !== 'not_found') {
            problems.push(`${op.method} ${request.url} (${by}) → ${response.statusCode} ${response.body.slice(0, 200)}`);
            continue;
          }
          // Indistinguishable from ids that do not exist, so ids cannot be probed.
          const fake = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, nobodys(value)]));
          const unknown = await send(requestFor(op, fake, who));
          if (typeof unknown === 'string' || unknown.statusCode !== 404 || unknown.json().error.message !== response.json().error.message) {
            problems.push(`${op.method} ${request.url} (${by}): not the same 404 as an unknown id (${typeof unknown === 'string' ? unknown : `${unknown.statusCode} ${unknown.body.slice(0, 200)}`})`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(100);

    // Nothing of the owner's changed, in the database or as the owner reads it.
    const after = await snapshot();
    for (const table of Object.keys(before)) expect(after[table], table).toEqual(before[table]);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    expect(await ownerView()).toEqual(viewBefore);

    // The stranger got nothing either: no questions, drafts, projects or share links, no money moved.
    expect((await t.inject({ method: 'GET', url: '/v2/questions', headers: stranger.auth })).json().questions).toEqual([]);
    expect((await t.inject({ method: 'GET', url: '/v1/drafts', headers: stranger.auth })).json().drafts).toEqual([]);
    expect((await t.inject({ method: 'GET', url: '/v1/projects', headers: stranger.auth })).json().projects).toEqual([]);
    expect((await t.inject({ method: 'GET', url: '/v1/billing/balance', headers: stranger.auth })).json()).toEqual(strangerBalance);
    // The stranger person is in no team of the owner's, and acting for it by header is refused.
    expect((await t.inject({ method: 'GET', url: '/v1/me', headers: strangerPerson.auth })).json().accounts).toHaveLength(1);
    expect((await t.inject({ method: 'GET', url: '/v2/questions', headers: strangerPerson.as(ids.team) })).statusCode).toBe(403);
    // The owner's person still has their session.
    expect((await t.inject({ method: 'GET', url: '/v1/me', headers: ownerPerson.auth })).statusCode).toBe(200);
    await expectReconciled(t);
  });
});

describe('a private audience the owner sponsors (issue 14)', () => {
  const strangers = () => [
    { by: 'key', auth: stranger.auth },
    { by: 'session', auth: strangerPerson.auth },
  ];

  it('the owner sees and prices it, by key and by session acting for the team', async () => {
    for (const auth of [owner.auth, ownerPerson.as(ids.team)]) {
      const one = await t.inject({ method: 'GET', url: '/v1/interest-audiences/owner-panel', headers: auth });
      expect(one.statusCode, one.body).toBe(200);
      expect(one.json().audience.sponsored).toBe(true);
      const mine = (await t.inject({ method: 'GET', url: '/v1/interest-audiences?mine=asking', headers: auth })).json().audiences;
      expect(mine.map((a: Json) => a.slug)).toContain('owner-panel');
      const priced = (await t.inject({ method: 'POST', url: '/v1/billing/estimate', headers: auth, payload: { draft: { ...choiceDraft(), interestAudienceId: 'owner-panel' } } })).json();
      expect(priced.validation).toEqual([]);
      expect(priced.poolSize).toBe(10);
    }
  });

  it('a stranger cannot see, list, price or ask it: the same answers as for an audience that does not exist, and nothing changes', async () => {
    const viewBefore = await ownerView();
    const before = await snapshot();
    const id = (await t.inject({ method: 'GET', url: '/v1/interest-audiences/owner-panel', headers: owner.auth })).json().audience.id;
    for (const { by, auth } of strangers()) {
      for (const ref of ['owner-panel', id]) {
        const seen = await t.inject({ method: 'GET', url: `/v1/interest-audiences/${ref}`, headers: auth });
        const unknown = await t.inject({ method: 'GET', url: '/v1/interest-audiences/nobodys-panel', headers: auth });
        expect(seen.statusCode, by).toBe(404);
        expect(seen.json().error.message).toBe(unknown.json().error.message);
      }
      const listed = (await t.inject({ method: 'GET', url: '/v1/interest-audiences?mine=asking', headers: auth })).json().audiences;
      expect(listed.map((a: Json) => a.slug), by).not.toContain('owner-panel');
      const priced = (await t.inject({ method: 'POST', url: '/v1/billing/estimate', headers: auth, payload: { draft: { ...choiceDraft(), interestAudienceId: 'owner-panel' } } })).json();
      expect(priced.validation, by).toEqual([expect.objectContaining({ field: 'draft.interestAudienceId', code: 'unknown_value' })]);
      expect(priced.poolSize).toBeNull();
    }
    // The stranger's own saved draft naming it is refused at the ask, spending nothing.
    const strangerBalance = (await t.inject({ method: 'GET', url: '/v1/billing/balance', headers: stranger.auth })).json();
    const draft = (await t.inject({ method: 'POST', url: '/v1/drafts', headers: stranger.auth, payload: { ...choiceDraft(), interestAudienceId: 'owner-panel' } })).json();
    const asked = await t.inject({ method: 'POST', url: '/v2/questions', headers: { ...stranger.auth, 'idempotency-key': randomUUID() }, payload: { fromDraftId: draft.id, draft: { type: 'single_choice', text: choiceDraft().text } } });
    expect(asked.statusCode).toBe(400);
    expect(asked.json().error.details.validation).toEqual([expect.objectContaining({ field: 'draft.interestAudienceId', code: 'unknown_value' })]);
    expect((await t.inject({ method: 'GET', url: '/v1/billing/balance', headers: stranger.auth })).json()).toEqual(strangerBalance);
    expect((await t.inject({ method: 'GET', url: '/v2/questions', headers: stranger.auth })).json().questions).toEqual([]);

    const after = await snapshot();
    for (const table of Object.keys(before)) expect(after[table], table).toEqual(before[table]);
    expect(await ownerView()).toEqual(viewBefore);
    await expectReconciled(t);
  });
});

