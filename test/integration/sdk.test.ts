import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { listen } from '../helpers/real-http.ts';
import { answerAll, fundedKey, ledgerRowsOf, NO_RATE_LIMITS, seedHeads, sleep, type Head } from '../helpers/questions.ts';
import { signIn } from '../helpers/people.ts';
import { CSV_COLUMNS } from '../../src/modules/exports/answers-csv.ts';
import { Headcount, HeadcountError, type Schemas, type WaitProgress } from '../../packages/sdk/src/index.ts';

/**
 * The TypeScript SDK (packages/sdk) against the service listening on a real socket, as an
 * application uses it: asks with only the required fields, an ask whose answer is lost and
 * retried (the same question, charged once), typed errors from real 4xx answers,
 * waitForResult while heads answer, async iteration over several pages, export bytes, abort,
 * and the portal-session resources (keys, webhooks) and drafts.
 */
let t: TestApp;
let base: string;
let heads: Head[];
let nextHead = 0;

const take = (count: number) => {
  const chosen = heads.slice(nextHead, nextHead + count);
  nextHead += count;
  if (chosen.length < count) throw new Error('not enough heads');
  return chosen;
};

/** A client for a new funded account (so balances and lists start empty). */
async function fundedClient(credits = 100_000, options: { fetch?: typeof fetch } = {}): Promise<{ hc: Headcount; key: TestKey }> {
  const key = await fundedKey(t, credits);
  return { hc: new Headcount({ apiKey: key.secret, baseUrl: base, ...options }), key };
}

const CHOICE: Schemas['QuestionDraft'] = { type: 'single_choice', text: 'Which name is best for a savings app?', options: [{ label: 'Penny' }, { label: 'Pocket' }], n: 10 };

beforeAll(async () => {
  t = await createTestApp({ env: { ...NO_RATE_LIMITS } });
  heads = await seedHeads(t, 300);
  base = await listen(t.app);
}, 120_000);
afterAll(async () => {
  await Promise.race([t?.close(), sleep(5_000)]);
});

describe('asking', () => {
  it('takes only the required fields (the types compile without n, tier, language…); the service fills the defaults', async () => {
    const { hc } = await fundedClient();
    const question = await hc.questions.ask({ draft: { type: 'free_text', text: 'What would you call a savings app?' } });
    expect(question).toMatchObject({ type: 'free_text', status: 'live', n: 50, tier: 1, language: 'en', reason: 'off' });
    expect(await hc.questions.get(question.id)).toMatchObject({ id: question.id, n: 50 });
    const updated = await hc.questions.update(question.id, { labels: ['naming'], bookmarked: true });
    expect(updated).toMatchObject({ labels: ['naming'], bookmarked: true });
  });

  it('the three fields that have a default but are listed as required are required by the service too, so the types keep them', async () => {
    const { hc } = await fundedClient();
    const draft = { ...CHOICE, targeting: {} } as unknown as Schemas['QuestionDraft'];
    const error = (await hc.questions.ask({ draft }).catch((e: unknown) => e)) as HeadcountError;
    expect(error).toBeInstanceOf(HeadcountError);
    expect(error.code).toBe('validation_failed');
    expect(error.validation.map((item) => item.field)).toEqual(expect.arrayContaining(['draft.targeting.countries']));
  });

  it('a retry after a lost answer sends the same Idempotency-Key: the same question, charged once', async () => {
    const sent: Array<{ key: string | null }> = [];
    const replayed: Array<string | null> = [];
    let dropped = 0;
    // The service handles the first ask, then its answer is lost on the way back (read and
    // thrown away, and the call fails as a reset connection does): the SDK cannot know whether
    // the ask happened, and retries.
    const losingFirstAnswer: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (init?.method === 'POST' && String(input).endsWith('/v2/questions')) {
        sent.push({ key: new Headers(init.headers).get('idempotency-key') });
        if (dropped++ === 0) {
          await response.arrayBuffer();
          throw new TypeError('fetch failed', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
        }
        replayed.push(response.headers.get('idempotent-replayed'));
      }
      return response;
    };
    const { hc, key } = await fundedClient(10_000, { fetch: losingFirstAnswer });
    const estimate = await hc.billing.estimate(CHOICE);
    const question = await hc.questions.ask({ draft: CHOICE });

    expect(sent).toHaveLength(2);
    expect(sent[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1]!.key).toBe(sent[0]!.key);
    expect(replayed).toEqual(['true']);
    // One question on the account, one ask on the ledger, the price reserved once.
    const page = await hc.questions.listPage();
    expect(page.questions.map((q) => q.id)).toEqual([question.id]);
    expect((await ledgerRowsOf(t, key, question.id)).map((row) => [row.kind, row.amount])).toEqual([['ask', -estimate.creditsTotal]]);
    const balance = await hc.billing.balance();
    expect(balance.reserved).toBe(estimate.creditsTotal);
    expect(balance.credits).toBe(10_000);
  });

  it('adds heads to a complete question with a key of its own (a dry run only quotes)', async () => {
    const { hc } = await fundedClient();
    const question = await hc.questions.ask({ draft: CHOICE });
    await answerAll(t, question.id, take(10));
    const quote = await hc.questions.addHeads(question.id, { n: 5, dryRun: true });
    expect(quote.quote).toMatchObject({ n: 5, newTarget: 15 });
    const added = await hc.questions.addHeads(question.id, { n: 5 });
    expect(added.question).toMatchObject({ id: question.id, status: 'live' });
    expect(added.creditsReserved).toBe(quote.quote.creditsTotal);
    const cancelled = await hc.questions.cancel(question.id);
    expect(cancelled).toMatchObject({ question: { status: 'cancelled' }, refundCredits: quote.quote.creditsTotal });
  });
});

describe('errors', () => {
  it('402 insufficient_credits carries its details and the request id of the answer', async () => {
    const { hc } = await fundedClient(10);
    const error = (await hc.questions.ask({ draft: CHOICE }).catch((e: unknown) => e)) as HeadcountError;
    expect(error).toBeInstanceOf(HeadcountError);
    expect(HeadcountError.is(error, 'insufficient_credits')).toBe(true);
    expect(error).toMatchObject({ status: 402, code: 'insufficient_credits', operationId: 'askQuestion', retryAfter: null });
    expect(error.details).toMatchObject({ needed: expect.any(Number), available: 10 });
    expect(error.requestId).toBeTruthy();
    expect(error.requestId).toBe(error.headers.get('x-request-id'));
    expect(error.message).toMatch(/credits/);
  });

  it('400 validation_failed lists the fields; a request id of our own comes back', async () => {
    const { hc } = await fundedClient();
    const error = (await hc.questions.ask({ draft: { ...CHOICE, n: 5 } }, { headers: { 'x-request-id': 'sdk-test-1' } }).catch((e: unknown) => e)) as HeadcountError;
    expect(error).toMatchObject({ status: 400, code: 'validation_failed', requestId: 'sdk-test-1' });
    expect(error.validation).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'draft.n', code: 'out_of_range' })]));
  });

  it('404 not_found for a question of no one (or another account)', async () => {
    const { hc } = await fundedClient();
    const { hc: other } = await fundedClient();
    const theirs = await other.questions.ask({ draft: CHOICE });
    for (const id of ['q_doesnotexist', theirs.id]) {
      await expect(hc.questions.get(id)).rejects.toMatchObject({ name: 'HeadcountError', status: 404, code: 'not_found', requestId: expect.any(String) });
    }
  });

  it('401 for a key that does not exist, 403 insufficient_scope for a key on a portal-session route', async () => {
    await expect(new Headcount({ apiKey: 'hc_test_nope', baseUrl: base }).billing.balance()).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
    const { hc } = await fundedClient();
    await expect(hc.keys.list()).rejects.toMatchObject({ status: 403, code: 'insufficient_scope', details: { credential: 'portal_session' } });
  });
});

describe('waiting', () => {
  it('waitForResult reports progress while heads answer, then returns the final result', async () => {
    const { hc } = await fundedClient();
    const question = await hc.questions.ask({ draft: CHOICE });
    const seen: WaitProgress[] = [];
    let sawFour: () => void = () => {};
    const fourSeen = new Promise<void>((resolve) => (sawFour = resolve));
    const waiting = hc.waitForResult(question.id, {
      seconds: 1,
      onProgress: (progress) => {
        seen.push(progress);
        if (progress.answered === 4) sawFour();
      },
    });
    // Heads answer in the background: four first, and the rest once the waiter has seen them.
    await answerAll(t, question.id, take(4), { option: 0 });
    await fourSeen;
    await answerAll(t, question.id, take(6), { option: 1 });
    const result = await waiting;

    expect(result).toMatchObject({ questionId: question.id, status: 'complete', nAccepted: 10, nRequested: 10 });
    expect(seen.some((p) => !p.done && p.answered === 4 && p.n === 10 && p.status === 'in_progress')).toBe(true);
    expect(seen.at(-1)).toMatchObject({ done: true, answered: 10, status: 'complete' });
    const leader = [...result.distribution].sort((a, b) => b.count - a.count)[0];
    expect(leader).toMatchObject({ option: 'Pocket', count: 6 });
    expect(await hc.questions.result(question.id)).toEqual(result);
  });

  it('an aborted wait, or waitForResult, stops at once', async () => {
    const { hc } = await fundedClient();
    const question = await hc.questions.ask({ draft: CHOICE });
    const controller = new AbortController();
    const started = Date.now();
    const waiting = hc.questions.wait(question.id, { seconds: 20 }, { signal: controller.signal });
    await expect.poll(() => t.container.waits.waiting(), { timeout: 5_000 }).toBe(1);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started).toBeLessThan(5_000);

    const stop = new AbortController();
    const looping = hc.waitForResult(question.id, { signal: stop.signal });
    setTimeout(() => stop.abort(new Error('stopped by the user')), 300);
    await expect(looping).rejects.toThrow('stopped by the user');
  });
});

describe('pagination', () => {
  it('iterates every question across pages, newest first', async () => {
    const pages: string[] = [];
    const counting: typeof fetch = (input, init) => {
      if (String(input).includes('/v2/questions?')) pages.push(String(input));
      return fetch(input, init);
    };
    const { hc } = await fundedClient(100_000, { fetch: counting });
    const asked: string[] = [];
    for (let i = 0; i < 5; i++) asked.push((await hc.questions.ask({ draft: { ...CHOICE, text: `Which name is best, take ${i + 1}?` } })).id);
    const listed: string[] = [];
    for await (const question of hc.questions.list({ limit: 2 })) listed.push(question.id);
    expect(listed).toEqual([...asked].reverse());
    expect(pages).toHaveLength(3);
    expect(pages[1]).toMatch(/limit=2&cursor=/);
  });

  it('iterates every answer across pages, and the ledger', async () => {
    const { hc } = await fundedClient();
    const question = await hc.questions.ask({ draft: CHOICE });
    await answerAll(t, question.id, take(10));
    const first = await hc.questions.answersPage(question.id, { limit: 3 });
    expect(first.answers).toHaveLength(3);
    expect(first.nextCursor).not.toBeNull();
    const refs: string[] = [];
    for await (const answer of hc.questions.answers(question.id, { limit: 3 })) refs.push(answer.attestationRef);
    expect(refs).toHaveLength(10);
    expect(new Set(refs).size).toBe(10);
    expect(refs.slice(0, 3)).toEqual(first.answers.map((a) => a.attestationRef));

    const rows: Schemas['LedgerRow'][] = [];
    for await (const row of hc.billing.ledger()) rows.push(row);
    // The grant, then the ask (fully spent by its ten answers: nothing to refund).
    expect(rows.map((row) => row.kind)).toEqual(['ask', 'bonus']);
  });
});

describe('exports', () => {
  it('CSV, PDF and PNG come as bytes with their type and name', async () => {
    const { hc } = await fundedClient();
    const question = await hc.questions.ask({ draft: CHOICE });
    await answerAll(t, question.id, take(10));

    const csv = await hc.questions.export(question.id, 'csv');
    expect(csv.contentType).toMatch(/^text\/csv/);
    expect(csv.filename).toMatch(/\.csv$/);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(csv.bytes);
    expect(text.startsWith(`\uFEFF${CSV_COLUMNS.join(',')}\r\n`)).toBe(true);
    expect(text.trim().split('\r\n')).toHaveLength(11);

    const pdf = await hc.questions.export(question.id, 'pdf');
    expect(pdf.contentType).toBe('application/pdf');
    expect(new TextDecoder().decode(pdf.bytes.subarray(0, 5))).toBe('%PDF-');
    expect(pdf.filename).toMatch(/\.pdf$/);

    const png = await hc.questions.export(question.id, 'png', { size: 'wide' });
    expect(png.contentType).toBe('image/png');
    expect([...png.bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

    // The same through the typed escape hatch.
    const bytes = await hc.request('exportPdf', { path: { id: question.id } });
    expect(bytes).toBeInstanceOf(Uint8Array);
  });
});

describe('the other resources', () => {
  it('drafts: create, get, replace, list, delete, and ask from one', async () => {
    const { hc } = await fundedClient();
    const draft = await hc.drafts.create({ type: 'single_choice', text: 'Which colour?', options: [{ label: 'Red' }, { label: 'Blue' }], n: 10 });
    expect(await hc.drafts.get(draft.id)).toMatchObject({ id: draft.id });
    const replaced = await hc.drafts.replace(draft.id, { type: 'single_choice', text: 'Which colour is calmer?', options: [{ label: 'Red' }, { label: 'Blue' }], n: 10 });
    expect(replaced).toMatchObject({ id: draft.id });
    expect((await hc.drafts.list()).map((d) => d.id)).toEqual([draft.id]);
    const question = await hc.questions.ask({ fromDraftId: draft.id, draft: { type: 'single_choice', text: 'Which colour is calmer?' } });
    expect(question.options.map((o) => o.label)).toEqual(['Red', 'Blue']);
    expect(await hc.drafts.delete(draft.id)).toEqual({ ok: true });
    await expect(hc.drafts.get(draft.id)).rejects.toMatchObject({ status: 404 });
  });

  it('keys and webhooks with a portal session as the access token', async () => {
    const person = await signIn(t);
    const hc = new Headcount({ accessToken: person.token, baseUrl: base });
    const created = await hc.keys.create({ name: 'ci', scopes: ['questions:read'], dailyCapCredits: null });
    expect(created.secret).toMatch(/^hc_live_/);
    expect((await hc.keys.list()).map((k) => k.id)).toContain(created.key.id);
    expect(await hc.keys.revoke(created.key.id)).toMatchObject({ id: created.key.id, revokedAt: expect.any(String) });

    const endpoint = await hc.webhooks.create({ url: 'http://127.0.0.1:9/hook', events: ['question.completed'] });
    expect(endpoint.secret).toBeTruthy();
    expect((await hc.webhooks.list()).map((e) => e.id)).toEqual([endpoint.id]);
    expect(await hc.webhooks.update(endpoint.id, { description: 'CI' })).toMatchObject({ description: 'CI' });
    const rotated = await hc.webhooks.rotateSecret(endpoint.id);
    expect(rotated.secret).not.toBe(endpoint.secret);
    expect(await hc.webhooks.test(endpoint.id)).toMatchObject({ test: true, type: 'question.completed', status: 'pending' });
    expect(await hc.webhooks.get(endpoint.id)).toMatchObject({ id: endpoint.id });
    expect(await hc.webhooks.delete(endpoint.id)).toEqual({ ok: true });
  });
});
