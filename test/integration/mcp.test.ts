import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { call, listen } from '../helpers/real-http.ts';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { answerAll, balanceOf, choiceDraft, estimate, fundedKey, grant, ledgerRowsOf, NO_RATE_LIMITS, seedHeads, sleep, type Head, type Json } from '../helpers/questions.ts';
import { signIn } from '../helpers/people.ts';
import { createMcpServer } from '../../src/mcp/mcp-server.ts';
import type { Actor } from '../../src/lib/actor.ts';

/**
 * The MCP server (docs/agents.md) as an agent meets it: the SDK's own client over real HTTP to
 * the app listening on a port, with an API key as bearer. Asserts what a user would see: the text
 * of each tool result, the money it moved (balance and ledger through the REST API), and the
 * safety rules (confirmation before spending, retries that never pay twice).
 */
let t: TestApp;
let base: string;
let heads: Head[];
let key: TestKey;
let agent: Client;
const clients: Client[] = [];

async function connect(secret: string): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${secret}` } } }));
  clients.push(client);
  return client;
}

type Tool = CallToolResult & { structuredContent?: Json };

async function tool(client: Client, name: string, args: Json = {}, options: { onprogress?: (p: Progress) => void } = {}): Promise<Tool & { text: string }> {
  const result = (await client.callTool({ name, arguments: args }, undefined, options)) as Tool;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  return { ...result, text };
}

/** A spending call as the safety rules want it: priced first, then confirmed (docs/agents.md "Safety rules"). */
async function confirmed(client: Client, name: string, args: Json): Promise<Tool & { text: string }> {
  const priced = await tool(client, name, args);
  expect(priced.structuredContent, priced.text).toMatchObject({ confirmationRequired: true });
  return tool(client, name, { ...args, confirm: true });
}

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const MCP_ACCEPT = { accept: 'application/json, text/event-stream' };

beforeAll(async () => {
  t = await createTestApp({ env: NO_RATE_LIMITS });
  base = await listen(t.app);
  heads = await seedHeads(t, 40);
  key = await fundedKey(t, 10_000);
  agent = await connect(key.secret);
});
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await t?.close();
});

describe('connecting', () => {
  it('lists the tools with titles, honest annotations and described schemas', async () => {
    const { tools } = await agent.listTools();
    const byName = new Map(tools.map((x) => [x.name, x]));
    expect([...byName.keys()].sort()).toEqual(
      ['add_heads', 'ask', 'cancel_question', 'estimate', 'get_balance', 'get_insights', 'get_question', 'get_result', 'list_questions', 'list_templates', 'wait_for_result'],
    );
    for (const x of tools) {
      expect(x.title, x.name).toBeTruthy();
      expect(x.description, x.name).toBeTruthy();
      expect(x.annotations?.openWorldHint, x.name).toBe(false);
    }
    expect(byName.get('cancel_question')!.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    for (const name of ['estimate', 'get_result', 'wait_for_result', 'list_questions', 'get_question', 'get_balance', 'list_templates']) {
      expect(byName.get(name)!.annotations?.readOnlyHint, name).toBe(true);
    }
    expect(byName.get('ask')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });

    const ask = byName.get('ask')!.inputSchema as Json;
    expect(ask.required).toEqual(['draft']);
    expect(Object.keys(ask.properties)).toEqual(expect.arrayContaining(['draft', 'templateId', 'then', 'confirm', 'idempotencyKey']));
    expect(ask.properties.confirm.description).toMatch(/confirm|reserve/i);
    const draft = ask.properties.draft;
    expect(draft.properties.type.enum).toContain('single_choice');
    expect(draft.properties.n).toMatchObject({ minimum: 10, maximum: 5000 });
    // Defaults are told, not filled in: a template's n must not be overridden by the draft's 50.
    expect(draft.properties.n.default).toBeUndefined();
    expect(draft.properties.n.description).toContain('Default: 50');
    expect(draft.properties.text.description).toBeTruthy();
    expect((byName.get('wait_for_result')!.inputSchema as Json).properties.timeoutSeconds).toMatchObject({ maximum: 55 });
  });

  it('refuses a request without a credential with 401 and the protected resource metadata', async () => {
    const response = await call(base, '/mcp', { method: 'POST', json: INITIALIZE, headers: MCP_ACCEPT });
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe(`Bearer resource_metadata="${t.config.publicBaseUrl}/.well-known/oauth-protected-resource/mcp", scope="questions:read questions:write templates:read account:read"`);
    expect(JSON.parse(response.body).error.code).toBe('unauthorized');
  });

  it('refuses a bad credential with invalid_token, and the SDK client cannot connect', async () => {
    const response = await call(base, '/mcp', { method: 'POST', json: INITIALIZE, headers: { ...MCP_ACCEPT, authorization: 'Bearer hc_live_nope' } });
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toContain('error="invalid_token"');
    expect(response.headers['www-authenticate']).toContain('resource_metadata=');
    await expect(connect('hc_live_nope')).rejects.toThrow();
  });

  it('serves the protected resource metadata (RFC 9728) to any origin', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const response = await call(base, path);
      expect(response.status).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(JSON.parse(response.body)).toEqual({
        resource: `${t.config.publicBaseUrl}/mcp`,
        authorization_servers: [`${t.config.publicBaseUrl}/oauth`],
        scopes_supported: ['questions:read', 'questions:write', 'templates:read', 'account:read'],
        bearer_methods_supported: ['header'],
        resource_name: 'Headcount',
        resource_documentation: `${t.config.publicBaseUrl}/docs`,
      });
    }
  });

  it('answers a raw initialize with the request id and CORS headers, and a browser preflight', async () => {
    const response = await call(base, '/mcp', { method: 'POST', json: INITIALIZE, headers: { ...MCP_ACCEPT, authorization: `Bearer ${key.secret}` } });
    expect(response.status).toBe(200);
    expect(response.headers['x-request-id']).toBeTruthy();
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['mcp-session-id']).toBeUndefined();
    expect(response.body).toContain('"serverInfo":{"name":"headcount"');
    const preflight = await call(base, '/mcp', { method: 'OPTIONS', headers: { origin: 'https://agent.example', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toContain('authorization');
  });

  it('works with a portal session too', async () => {
    const person = await signIn(t);
    const client = await connect(person.token);
    const balance = await tool(client, 'get_balance');
    expect(balance.isError).toBeFalsy();
    expect(balance.text).toContain('credits available to spend');
  });

  it('answers GET and DELETE with 405 (stateless: no stream, no session)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await call(base, '/mcp', { method, headers: { authorization: `Bearer ${key.secret}` } });
      expect(response.status, method).toBe(405);
      expect(response.headers.allow).toBe('POST');
    }
  });
});

describe('pricing and asking', () => {
  it('estimate prices a draft exactly as the REST estimate, spending nothing', async () => {
    const result = await tool(agent, 'estimate', { draft: choiceDraft() });
    const rest = await estimate(t, choiceDraft());
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ creditsTotal: rest.creditsTotal, validation: [] });
    expect(result.text).toContain(`Price: ${rest.creditsTotal} credits`);
    expect(result.text).toContain('Nothing was spent.');
    const broken = await tool(agent, 'estimate', { draft: choiceDraft({ options: [{ label: 'Only one' }] }) });
    expect(broken.text).toContain('cannot be asked yet');
    expect(broken.text).toContain('draft.options');
  });

  it('an agent prices an interest audience and asks it from a saved draft (issue 14)', async () => {
    const own = await fundedKey(t, 10_000);
    const client = await connect(own.secret);
    await t.container.audienceAdmin.create({ slug: 'mcp-testers', name: 'MCP testers', description: 'Agents\' testers.', category: 'tech', grades: [{ name: 'Tester', proves: 'Signed up.', payPence: 20 }], private: true });
    await t.container.audienceAdmin.setStatus('mcp-testers', 'open');
    await t.container.audienceAdmin.sponsor('mcp-testers', own.accountId);
    for (const head of heads.slice(0, 12)) await t.container.audienceAdmin.grade('mcp-testers', head.id, 1);
    const draft = choiceDraft({ text: 'Which onboarding step confused you most?', interestAudienceId: 'mcp-testers', minGrade: 1 });
    const priced = await tool(client, 'estimate', { draft });
    expect(priced.structuredContent).toMatchObject({ creditsPerAnswer: 30, creditsTotal: 300, poolSize: 12, validation: [] });
    expect(priced.text).toContain('12 heads of the audience can answer');
    // Private: another credential's estimate does not know it.
    const stranger = await tool(agent, 'estimate', { draft });
    expect(stranger.text).toContain('draft.interestAudienceId');

    const saved = (await t.inject({ method: 'POST', url: '/v1/drafts', headers: own.auth, payload: draft })).json();
    const asked = await confirmed(client, 'ask', { fromDraftId: saved.id, draft: { type: 'single_choice', text: draft.text } });
    expect(asked.isError, asked.text).toBeFalsy();
    expect(asked.structuredContent!.question).toMatchObject({ source: 'mcp', creditsPerAnswer: 30, minGrade: 1, interestAudienceId: expect.stringMatching(/^aud_/) });
  });

  it('ask first names the price and asks for confirm: true, then reserves it, from source mcp', async () => {
    const own = await fundedKey(t, 10_000);
    const client = await connect(own.secret);
    const draft = choiceDraft({ text: 'Which name is best for a budgeting app?' });
    const first = await tool(client, 'ask', { draft });
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).toMatchObject({ confirmationRequired: true, quote: { creditsTotal: 120 } });
    expect(first.text).toContain('This will reserve 120 credits (no daily cap on this credential, balance 10000 credits available)');
    expect(first.text).toContain('Call ask again with the same arguments and confirm: true.');
    expect((await balanceOf(t, own)).reserved).toBe(0);

    const asked = await tool(client, 'ask', { draft, confirm: true });
    expect(asked.isError).toBeFalsy();
    const question = asked.structuredContent!.question;
    expect(question).toMatchObject({ status: 'live', n: 10, source: 'mcp' });
    expect(asked.text).toContain(`Asked ${question.id}`);
    expect(asked.text).toContain('Reserved 120 credits (10 answers × 12 credits)');
    expect(asked.text).toContain('Left: 9880 credits available');
    expect(asked.text).toContain('wait_for_result');
  });

  it('confirm: true on a first call shows the price and reserves nothing; the confirm after it reserves', async () => {
    const own = await fundedKey(t, 10_000);
    const client = await connect(own.secret);
    const draft = choiceDraft({ text: 'Which mascot suits a savings app for children?' });
    const eager = await tool(client, 'ask', { draft, confirm: true });
    expect(eager.structuredContent).toMatchObject({ confirmationRequired: true, quote: { creditsTotal: 120 } });
    expect(eager.text).toContain('Nothing was reserved: confirm: true counts only after this same call has shown its price');
    expect((await balanceOf(t, own)).reserved).toBe(0);
    // Other arguments were not priced: their confirm shows their own price.
    const other = await tool(client, 'ask', { draft: { ...draft, n: 20 }, confirm: true });
    expect(other.structuredContent).toMatchObject({ confirmationRequired: true, quote: { creditsTotal: 240 } });
    const asked = await tool(client, 'ask', { draft, confirm: true });
    expect(asked.structuredContent).toMatchObject({ confirmationRequired: false, creditsReserved: 120 });
    expect((await balanceOf(t, own)).reserved).toBe(120);
    // A shown price can be confirmed for ten minutes.
    t.clock.advance(10 * 60_000 + 1_000);
    expect((await tool(client, 'ask', { draft: { ...draft, n: 20 }, confirm: true })).structuredContent).toMatchObject({ confirmationRequired: true });
    // The hourly reap deletes prices shown over an hour ago.
    const shown = () => t.db.selectFrom('shown_prices').select('price_key').where('account_id', '=', own.accountId).execute();
    expect((await shown()).length).toBeGreaterThan(0);
    t.clock.advance(60 * 60_000 + 1_000);
    expect(await t.container.shownPrices.reap()).toBeGreaterThan(0);
    expect(await shown()).toEqual([]);
  });

  it('a retried ask (same arguments, no key) returns the same question and charges once', async () => {
    const own = await fundedKey(t, 10_000);
    const client = await connect(own.secret);
    const draft = choiceDraft({ text: 'Which colour should the logo be?' });
    const first = await confirmed(client, 'ask', { draft });
    const again = await tool(client, 'ask', { draft, confirm: true });
    // Even without confirm: a replay spends nothing, so it asks nothing.
    const third = await tool(client, 'ask', { draft });
    for (const retry of [again, third]) {
      expect(retry.structuredContent).toMatchObject({ replayed: true, creditsReserved: 0, question: { id: first.structuredContent!.question.id } });
      expect(retry.text).toContain('Replayed: the same call with the same arguments was made less than 10 minutes ago');
    }
    const rows = await ledgerRowsOf(t, own, first.structuredContent!.question.id);
    expect(rows.map((r) => [r.kind, r.amount])).toEqual([['ask', -120]]);
    expect((await balanceOf(t, own)).reserved).toBe(120);
  });

  it('the retry window slides over a bucket boundary and ends after 10 minutes', async () => {
    const own = await fundedKey(t, 10_000);
    const client = await connect(own.secret);
    const draft = choiceDraft({ text: 'Which slogan sounds more trustworthy?' });
    // One second before a 10-minute boundary: the retry two seconds later is in the next bucket.
    const boundary = Math.ceil(t.clock.now().getTime() / 600_000) * 600_000 + 600_000;
    t.clock.set(new Date(boundary - 1_000));
    const first = await confirmed(client, 'ask', { draft });
    t.clock.advance(2_000);
    expect((await tool(client, 'ask', { draft, confirm: true })).structuredContent).toMatchObject({ replayed: true, question: { id: first.structuredContent!.question.id } });
    t.clock.set(new Date(boundary - 1_000 + 600_001));
    const later = await tool(client, 'ask', { draft });
    expect(later.structuredContent).toMatchObject({ confirmationRequired: true });
    const second = await tool(client, 'ask', { draft, confirm: true });
    expect(second.structuredContent).toMatchObject({ replayed: false });
    expect(second.structuredContent!.question.id).not.toBe(first.structuredContent!.question.id);
  });

  it('an explicit idempotencyKey replays the same call and refuses other arguments', async () => {
    const own = await fundedKey(t, 10_000);
    const client = await connect(own.secret);
    const draft = choiceDraft({ text: 'Which headline makes you want to read on?' });
    const first = await confirmed(client, 'ask', { draft, idempotencyKey: 'launch-42' });
    const again = await tool(client, 'ask', { draft, idempotencyKey: 'launch-42' });
    expect(again.structuredContent).toMatchObject({ replayed: true, question: { id: first.structuredContent!.question.id } });
    expect(again.text).toContain('this idempotencyKey was used before');
    const other = await tool(client, 'ask', { draft: { ...draft, n: 20 }, confirm: true, idempotencyKey: 'launch-42' });
    expect(other.isError).toBe(true);
    expect(other.text).toContain('Error (idempotency_conflict)');
    expect(other.text).toContain('Use a new key');
    expect((await balanceOf(t, own)).reserved).toBe(120);
  });

  it('insufficient credits and the daily cap come back as tool errors that say what to do', async () => {
    const poor = await connect((await fundedKey(t, 50)).secret);
    const refused = await tool(poor, 'ask', { draft: choiceDraft(), confirm: true });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('Error (insufficient_credits)');
    expect(refused.text).toContain(`${t.config.publicBaseUrl}/app/credits`);
    expect(refused.text).toContain('lower n');
    // Known before confirming: no "call again with confirm" for a call that must fail.
    expect((await tool(poor, 'ask', { draft: choiceDraft() })).text).toContain('Error (insufficient_credits)');

    const capped = await connect((await fundedKey(t, 10_000, 100)).secret);
    const overCap = await tool(capped, 'ask', { draft: choiceDraft(), confirm: true });
    expect(overCap.isError).toBe(true);
    expect(overCap.text).toContain('Error (spend_cap_exceeded)');
    expect(overCap.text).toContain('leaves 100 credits today');
  });

  it('a missing scope is a tool error naming the scope', async () => {
    const reader = await connect((await t.makeKey(['questions:read'])).secret);
    const refused = await tool(reader, 'ask', { draft: choiceDraft(), confirm: true });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('"questions:write"');
    const balance = await tool(reader, 'get_balance');
    expect(balance.isError).toBe(true);
    expect(balance.text).toContain('"account:read"');
  });

  it('a draft that breaks a rule is a tool error listing the field', async () => {
    const result = await tool(agent, 'ask', { draft: choiceDraft({ options: [{ label: 'Only one' }] }), confirm: true });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('Error (validation_failed)');
    expect(result.text).toMatch(/- draft\.options: .+\(too_few\)/);
    // JSON Schema limits are checked by the REST route's own validator, in the same words.
    const tooFew = await tool(agent, 'ask', { draft: choiceDraft({ n: 5 }), confirm: true });
    expect(tooFew.isError).toBe(true);
    expect(tooFew.text).toContain('- draft.n: draft.n must be at least 10. (out_of_range)');
    // The estimate, like POST /v1/billing/estimate, still prices it and lists the broken rule.
    const priced = await tool(agent, 'estimate', { draft: choiceDraft({ n: 5 }) });
    expect(priced.isError).toBeFalsy();
    expect(priced.structuredContent!.validation).toEqual([expect.objectContaining({ field: 'draft.n', code: 'out_of_range' })]);
  });
});

describe('waiting, results and what follows', () => {
  let id: string;

  it('wait_for_result reports progress as answers arrive and returns a partial result with how to go on', async () => {
    id = (await confirmed(agent, 'ask', { draft: choiceDraft({ text: 'Which app name would you trust with money?' }) })).structuredContent!.question.id;
    await answerAll(t, id, heads.slice(0, 3), (i) => ({ option: i % 2 }));
    const progress: Progress[] = [];
    let returned = false;
    const waiting = tool(agent, 'wait_for_result', { questionId: id, timeoutSeconds: 3 }, { onprogress: (p) => progress.push(p) }).finally(() => (returned = true));
    await sleep(500);
    await answerAll(t, id, heads.slice(3, 5), { option: 0 });
    // As the answers arrive, not when the call returns.
    await vi.waitFor(() => expect(progress.at(-1)?.progress).toBe(5), { timeout: 1_500, interval: 20 });
    expect(returned).toBe(false);
    const result = await waiting;
    expect(result.isError).toBeFalsy();
    // The answers so far at once, then each as it is recorded (the two later ones may be read together).
    const counts = progress.map((p) => p.progress);
    expect(counts[0]).toBe(3);
    expect(counts.at(-1)).toBe(5);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(new Set(counts).size).toBe(counts.length);
    expect(progress.every((p) => p.total === 10 && p.message === `${p.progress} of 10 answers`)).toBe(true);
    expect(result.structuredContent).toMatchObject({ done: false, result: { nAccepted: 5, status: 'in_progress' } });
    expect(result.text).toContain('in progress, 5 of 10 answers');
    expect(result.text).toContain('- Penny: 4 (80%)');
    expect(result.text).toContain('- Pocket: 1 (20%)');
    expect(result.text).toContain('simulated heads');
    expect(result.text).toContain(`call wait_for_result again with questionId "${id}"`);
  });

  it('wait_for_result returns done once the question is complete, and get_result shows the split', async () => {
    await answerAll(t, id, heads.slice(5, 10), { option: 1 });
    const done = await tool(agent, 'wait_for_result', { questionId: id, timeoutSeconds: 5 });
    expect(done.structuredContent).toMatchObject({ done: true, result: { status: 'complete', nAccepted: 10 } });
    expect(done.text).toContain('Done: this is the final result.');
    const result = await tool(agent, 'get_result', { questionId: id });
    expect(result.text).toContain(`Result of ${id}: complete, 10 of 10 answers.`);
    expect(result.text).toContain('- Penny: 4 (40%)');
    expect(result.text).toContain('- Pocket: 6 (60%)');
    expect(result.text).toContain('Answered by simulated heads (development mode), not real people.');
    expect(result.structuredContent!.result.distribution).toHaveLength(2);
    const filtered = await tool(agent, 'get_result', { questionId: id, option: 7 });
    expect(filtered.isError).toBe(true);
    expect(filtered.text).toContain('Error (validation_failed)');
    // fields: only those properties (and the four every result reply has); the text is the same.
    const few = await tool(agent, 'get_result', { questionId: id, fields: ['summary', 'distribution'] });
    expect(Object.keys(few.structuredContent!.result)).toEqual(['questionId', 'status', 'nRequested', 'nAccepted', 'distribution', 'summary']);
    expect(few.structuredContent!.result.distribution).toEqual(result.structuredContent!.result.distribution);
    expect(few.text).toBe(result.text);
    expect(JSON.stringify(few.structuredContent).length).toBeLessThan(JSON.stringify(result.structuredContent).length / 2);
    const unknown = await tool(agent, 'get_result', { questionId: id, fields: ['colour'] });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/Invalid arguments for tool get_result.*fields/);
  });

  it('lists and gets questions', async () => {
    const newer = (await confirmed(agent, 'ask', { draft: choiceDraft({ text: 'Which of these two names is easier to say?' }) })).structuredContent!.question;
    const list = await tool(agent, 'list_questions', { limit: 1 });
    expect(list.structuredContent!.questions.map((q: Json) => q.id)).toEqual([newer.id]);
    expect(list.text).toContain(`1 question, newest first:\n- ${newer.id} "Which of these two names is easier to say?": live, 0 of 10 answers`);
    const cursor = list.structuredContent!.nextCursor;
    expect(list.text).toContain(`More: call list_questions again with cursor "${cursor}".`);
    const next = await tool(agent, 'list_questions', { limit: 1, cursor });
    expect(next.structuredContent!.questions.map((q: Json) => q.id)).toEqual([id]);
    expect((await tool(agent, 'list_questions', { status: 'nonsense' })).isError).toBe(true);
    const got = await tool(agent, 'get_question', { questionId: id });
    expect(got.structuredContent!.question).toMatchObject({ id, status: 'complete', answered: 10 });
    expect(got.text).toContain(`${id} "Which app name would you trust with money?": complete, 10 of 10 answers`);
    const missing = await tool(agent, 'get_question', { questionId: 'q_doesnotexist' });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('Error (not_found)');
  });

  it('add_heads quotes first, reserves on confirm, and a retry pays once', async () => {
    const quote = await tool(agent, 'add_heads', { questionId: id, n: 5 });
    expect(quote.structuredContent).toMatchObject({ confirmationRequired: true, quote: { creditsTotal: 60, newTarget: 15 } });
    expect(quote.text).toContain('This will reserve 60 credits');
    expect(quote.text).toContain('Call add_heads again with the same arguments and confirm: true.');
    const before = await balanceOf(t, key);
    const added = await tool(agent, 'add_heads', { questionId: id, n: 5, confirm: true });
    expect(added.structuredContent).toMatchObject({ replayed: false, creditsReserved: 60, question: { status: 'live', n: 15 } });
    expect(added.text).toContain('Reserved 60 credits');
    expect(added.text).toContain(`Left: ${before.credits - before.reserved - 60} credits available`);
    const retry = await tool(agent, 'add_heads', { questionId: id, n: 5, confirm: true });
    expect(retry.structuredContent).toMatchObject({ replayed: true, creditsReserved: 0 });
    const after = await balanceOf(t, key);
    expect(after.reserved - before.reserved).toBe(60);
  });

  it('cancel_question shows the refund', async () => {
    const q = (await confirmed(agent, 'ask', { draft: choiceDraft({ text: 'Which logo feels friendlier to you?' }) })).structuredContent!.question;
    await answerAll(t, q.id, heads.slice(0, 2));
    const cancelled = await tool(agent, 'cancel_question', { questionId: q.id });
    expect(cancelled.structuredContent).toMatchObject({ refundCredits: 96, question: { status: 'cancelled' } });
    expect(cancelled.text).toContain('Refunded 96 credits for the answers not given.');
    expect(cancelled.text).toContain('credits available');
    const again = await tool(agent, 'cancel_question', { questionId: q.id });
    expect(again.isError).toBe(true);
    expect(again.text).toContain('Error (conflict)');
  });

  it('get_insights says when there is no summary and why one cannot be made yet', async () => {
    const none = await tool(agent, 'get_insights', { questionId: id });
    expect(none.isError).toBeFalsy();
    expect(none.structuredContent).toEqual({ insights: null });
    expect(none.text).toContain('No summary');
    const refresh = await tool(agent, 'get_insights', { questionId: id, refresh: true });
    expect(refresh.isError).toBe(true);
    expect(refresh.text).toContain('Error (too_few_answers)');
  });

  it('get_balance and list_templates', async () => {
    const balance = await tool(agent, 'get_balance');
    const rest = await balanceOf(t, key);
    expect(balance.structuredContent).toMatchObject({ credits: rest.credits, reserved: rest.reserved, available: rest.credits - rest.reserved, capRemaining: null });
    expect(balance.text).toContain(`${rest.credits - rest.reserved} credits available to spend`);
    const templates = await tool(agent, 'list_templates');
    expect(templates.structuredContent!.templates.length).toBeGreaterThan(0);
    expect(templates.text).toContain(templates.structuredContent!.templates[0].id);
  });

  it('serves results as resources', async () => {
    const { resourceTemplates } = await agent.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate)).toEqual(expect.arrayContaining(['headcount://questions/{id}/result', 'headcount://questions/{id}']));
    const { resources } = await agent.listResources();
    expect(resources.map((r) => r.uri)).toContain(`headcount://questions/${id}/result`);
    const read = await agent.readResource({ uri: `headcount://questions/${id}/result` });
    const content = read.contents[0] as { text: string; mimeType: string };
    expect(content.mimeType).toBe('application/json');
    expect(JSON.parse(content.text).result).toMatchObject({ questionId: id, nRequested: 15 });
    const question = await agent.readResource({ uri: `headcount://questions/${id}` });
    expect(JSON.parse((question.contents[0] as { text: string }).text).question.id).toBe(id);
    const missing = await agent.readResource({ uri: 'headcount://questions/q_nothere/result' }).then(() => null, (error: Error & { code?: number }) => error);
    expect(missing).toMatchObject({ code: -32002 });
    // The client adds "MCP error -32002: " once; the server's message carries no prefix of its own.
    expect(missing!.message).toMatch(/^MCP error -32002: No such question/);
    expect(missing!.message.match(/MCP error/g)).toHaveLength(1);
  });
});

describe('an agent with an OAuth grant', () => {
  it('asks without confirmation up to the grant\'s autoApproveCredits, and asks first above it', async () => {
    const person = await signIn(t);
    await grant(t, person.personalAccountId, 10_000);
    const session = await t.container.authenticate(person.token, { account: null, audience: 'mcp' });
    // What an OAuth access token will resolve to (lib/actor.ts GrantActor), without the token.
    const actor: Actor = { accountId: session.accountId, keyId: null, scopes: session.scopes, dailyCapCredits: null, grant: { personId: person.personId, clientId: 'client_test', clientName: 'Test agent', autoApproveCredits: 150 } };
    const server = createMcpServer(t.container, actor, { publicBaseUrl: t.config.publicBaseUrl, log: { error: () => undefined } });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'grant-test', version: '1.0.0' });
    await client.connect(clientSide);
    clients.push(client);

    const small = await tool(client, 'ask', { draft: choiceDraft({ text: 'Which of these two cover photos do you prefer?' }) });
    expect(small.structuredContent).toMatchObject({ confirmationRequired: false, creditsReserved: 120, question: { source: 'mcp' } });
    expect(small.text).toContain('Asked without a confirmation step: the price is within the 150 credits the person let this app spend without asking.');
    const confirmed = await tool(client, 'ask', { draft: choiceDraft({ text: 'Which of these two app icons do you prefer?' }), confirm: true });
    expect(confirmed.structuredContent).toMatchObject({ confirmationRequired: false, creditsReserved: 120 });
    expect(confirmed.text).not.toContain('without a confirmation step');
    const large = await tool(client, 'ask', { draft: choiceDraft({ text: 'Which of these two cover photos do you prefer?', n: 20 }) });
    expect(large.structuredContent).toMatchObject({ confirmationRequired: true, quote: { creditsTotal: 240 } });
  });
});

// Last: releasing the waits is what a stopping server does, and it stays released.
describe('a stopping server', () => {
  it('answers a parked wait_for_result at once with the result so far and done false', async () => {
    const q = (await confirmed(agent, 'ask', { draft: choiceDraft({ text: 'Which onboarding screen is clearer to you?' }) })).structuredContent!.question;
    const started = performance.now();
    const waiting = tool(agent, 'wait_for_result', { questionId: q.id, timeoutSeconds: 30 });
    const deadline = Date.now() + 10_000;
    while (t.container.waits.waiting() < 1 && Date.now() < deadline) await sleep(20);
    expect(t.container.waits.release()).toBe(1);
    const result = await waiting;
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(result.structuredContent).toMatchObject({ done: false, result: { questionId: q.id } });
    expect(result.text).toContain('call wait_for_result again');
  });
});
