/**
 * The resources over a scripted fetch: pagination follows `nextCursor` only as far as the loop
 * reads, waitForResult loops on wait and reports each snapshot, exports carry their name and type.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { standInFetch, type Recorded, type Scripted } from '../test/stand-in-fetch.ts';
import { Headcount } from './client.ts';
import { HeadcountTimeoutError } from './errors.ts';
import type { WaitProgress } from './wait-for-result.ts';

function client(script: Scripted[] | ((call: Recorded, index: number) => Scripted)) {
  const stand = standInFetch(script);
  return { hc: new Headcount({ apiKey: 'hc_test_x', baseUrl: 'http://hc.test', fetch: stand.fetch }), calls: stand.calls };
}

const result = (nAccepted: number, status = 'in_progress') => ({ questionId: 'q_1', status, nRequested: 10, nAccepted, distribution: [] });

afterEach(() => {
  vi.useRealTimers();
});

describe('pagination', () => {
  it('iterates every page, passing each nextCursor back with the same query', async () => {
    const { hc, calls } = client([
      { status: 200, json: { questions: [{ id: 'q_3' }, { id: 'q_2' }], nextCursor: 'c1' } },
      { status: 200, json: { questions: [{ id: 'q_1' }], nextCursor: null } },
    ]);
    const ids: string[] = [];
    for await (const question of hc.questions.list({ limit: 2, label: 'naming' })) ids.push(question.id);
    expect(ids).toEqual(['q_3', 'q_2', 'q_1']);
    expect(calls.map((c) => c.url)).toEqual(['http://hc.test/v2/questions?limit=2&label=naming', 'http://hc.test/v2/questions?limit=2&label=naming&cursor=c1']);
  });

  it('fetches no further than the loop reads', async () => {
    const { hc, calls } = client([{ status: 200, json: { answers: [{ attestationRef: 'a' }, { attestationRef: 'b' }], nextCursor: 'c1' } }]);
    for await (const answer of hc.questions.answers('q_1', { limit: 2 })) {
      expect(answer.attestationRef).toBe('a');
      break;
    }
    expect(calls).toHaveLength(1);
  });

  it('walks the ledger the same way, and stops on a cursor handed back unchanged', async () => {
    const { hc } = client([
      { status: 200, json: { rows: [{ id: 'led_2' }], nextCursor: 'c1' } },
      { status: 200, json: { rows: [{ id: 'led_1' }], nextCursor: 'c1' } },
    ]);
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const row of hc.billing.ledger()) seen.push(row.id);
      })(),
    ).rejects.toThrow(/endless loop/);
    expect(seen).toEqual(['led_2', 'led_1']);
  });
});

describe('unwrapping', () => {
  it('returns the one object of a one-field envelope, and the rest as served', async () => {
    const { hc } = client([
      { status: 200, json: { result: result(3) } },
      { status: 200, json: { question: { id: 'q_1' }, refundCredits: 84 } },
      { status: 200, json: { drafts: [{ id: 'drf_1' }] } },
      { status: 201, json: { key: { id: 'key_1' }, secret: 'hc_live_s' } },
    ]);
    expect(await hc.questions.result('q_1')).toMatchObject({ nAccepted: 3 });
    expect(await hc.questions.cancel('q_1')).toEqual({ question: { id: 'q_1' }, refundCredits: 84 });
    expect(await hc.drafts.list()).toEqual([{ id: 'drf_1' }]);
    expect(await hc.keys.create({ name: 'ci', scopes: ['questions:read'], dailyCapCredits: null })).toEqual({ key: { id: 'key_1' }, secret: 'hc_live_s' });
  });

  it('estimate sends the draft (and surface when given)', async () => {
    const { hc, calls } = client([{ status: 200, json: { creditsTotal: 120 } }, { status: 200, json: { creditsTotal: 120 } }]);
    await hc.billing.estimate({ type: 'free_text', text: 'Anything?' });
    await hc.billing.estimate({ type: 'free_text', text: 'Anything?' }, { surface: 'web' });
    expect(calls.map((c) => JSON.parse(c.body!))).toEqual([{ draft: { type: 'free_text', text: 'Anything?' } }, { draft: { type: 'free_text', text: 'Anything?' }, surface: 'web' }]);
  });
});

describe('exports', () => {
  it('answer the bytes, the content type and the UTF-8 file name', async () => {
    const { hc, calls } = client([
      {
        status: 200,
        body: '\uFEFFoption,reason\n',
        headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="Caf_.csv"; filename*=UTF-8''Caf%C3%A9.csv` },
      },
    ]);
    const file = await hc.questions.export('q_1', 'csv', { tier: 2 });
    expect(calls[0]!.url).toBe('http://hc.test/v2/questions/q_1/export.csv?tier=2');
    expect(file.contentType).toBe('text/csv; charset=utf-8');
    expect(file.filename).toBe('Café.csv');
    expect(new TextDecoder().decode(file.bytes)).toBe('option,reason\n'); // TextDecoder drops the BOM
  });
});

describe('waitForResult', () => {
  it('calls wait until done, reporting each snapshot, and returns the final result', async () => {
    const { hc, calls } = client([
      { status: 200, json: { result: result(2), done: false } },
      { status: 200, json: { result: result(7), done: false } },
      { status: 200, json: { result: result(10, 'complete'), done: true } },
    ]);
    const seen: WaitProgress[] = [];
    const final = await hc.waitForResult('q_1', { onProgress: (p) => seen.push(p), seconds: 5, minAnswers: 8 });
    expect(final).toMatchObject({ status: 'complete', nAccepted: 10 });
    expect(seen.map((p) => [p.answered, p.n, p.status, p.done])).toEqual([
      [2, 10, 'in_progress', false],
      [7, 10, 'in_progress', false],
      [10, 10, 'complete', true],
    ]);
    expect(calls.every((c) => c.url === 'http://hc.test/v2/questions/q_1/wait?seconds=5&minAnswers=8')).toBe(true);
  });

  it('throws HeadcountTimeoutError at timeoutMs, with the last result, aborting the wait in flight and leaving no timer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { hc, calls } = client((_, index) => (index === 0 ? { status: 200, json: { result: result(4), done: false } } : 'hang'));
    const waiting = hc.waitForResult('q_1', { timeoutMs: 3_000 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(3_000);
    const error = await waiting;
    expect(error).toBeInstanceOf(HeadcountTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 3_000, lastResult: { nAccepted: 4 } });
    expect((error as Error).message).toMatch(/not done within 3000 ms \(4 of 10 answers so far\)/);
    // The second call asked only for the seconds left, not 25.
    expect(calls[1]!.url).toMatch(/seconds=3$/);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stops on abort with the signal\'s reason', async () => {
    const { hc } = client(['hang']);
    const controller = new AbortController();
    const waiting = hc.waitForResult('q_1', { signal: controller.signal });
    controller.abort(new Error('user pressed Ctrl-C'));
    await expect(waiting).rejects.toThrow('user pressed Ctrl-C');
  });
});
