/**
 * Compile-time checks of the generated types and of `request`'s typing (`npm run typecheck`
 * type-checks this file; vitest runs the few runtime lines). The point of issue 16's complaint:
 * request fields and query parameters that have a default are optional.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { standInFetch } from '../test/stand-in-fetch.ts';
import { Headcount } from './client.ts';
import type { BodyOf, QueryOf, RequestOptions, ResponseOf, Schemas } from './types.ts';

type Draft = Schemas['QuestionDraft'];
type IsOptional<T, K extends keyof T> = {} extends Pick<T, K> ? true : false;

describe('generated types', () => {
  it('make request fields with a default optional (n, tier, language, neither, rush, reason, publicResults, options)', () => {
    expectTypeOf<IsOptional<Draft, 'n'>>().toEqualTypeOf<true>();
    expectTypeOf<IsOptional<Draft, 'tier'>>().toEqualTypeOf<true>();
    expectTypeOf<IsOptional<Draft, 'language'>>().toEqualTypeOf<true>();
    expectTypeOf<IsOptional<Draft, 'neither'>>().toEqualTypeOf<true>();
    expectTypeOf<IsOptional<Draft, 'rush'>>().toEqualTypeOf<true>();
    expectTypeOf<IsOptional<Draft, 'reason'>>().toEqualTypeOf<true>();
    expectTypeOf<IsOptional<Draft, 'publicResults'>>().toEqualTypeOf<true>();
    expectTypeOf<IsOptional<Draft, 'options'>>().toEqualTypeOf<true>();
    // Required fields stay required.
    expectTypeOf<IsOptional<Draft, 'type'>>().toEqualTypeOf<false>();
    expectTypeOf<IsOptional<Draft, 'text'>>().toEqualTypeOf<false>();
    // An ask with only what is required compiles.
    const body: BodyOf<'askQuestion'> = { draft: { type: 'free_text', text: 'What would you call it?' } };
    expect(body.draft.type).toBe('free_text');
    type FollowUp = NonNullable<BodyOf<'askQuestion'>['then']>[number];
    expectTypeOf<IsOptional<FollowUp, 'n'>>().toEqualTypeOf<true>();
    expectTypeOf<IsOptional<FollowUp, 'tier'>>().toEqualTypeOf<true>();
  });

  it('make query parameters with a default optional (limit, archived, seconds)', () => {
    expectTypeOf<IsOptional<QueryOf<'listQuestions'>, 'limit'>>().toEqualTypeOf<true>();
    expectTypeOf<IsOptional<QueryOf<'listQuestions'>, 'archived'>>().toEqualTypeOf<true>();
    expectTypeOf<IsOptional<QueryOf<'waitForQuestion'>, 'seconds'>>().toEqualTypeOf<true>();
    expectTypeOf<IsOptional<QueryOf<'listAnswers'>, 'limit'>>().toEqualTypeOf<true>();
  });

  it('keep response fields as the document says', () => {
    expectTypeOf<IsOptional<Schemas['Question'], 'n'>>().toEqualTypeOf<false>();
    expectTypeOf<IsOptional<Schemas['Question'], 'linkUrl'>>().toEqualTypeOf<true>();
    expectTypeOf<Schemas['Question']['tier']>().toEqualTypeOf<1 | 2 | 3>();
    expectTypeOf<Schemas['Result']['nAccepted']>().toEqualTypeOf<number>();
    expectTypeOf<ResponseOf<'listQuestions'>['nextCursor']>().toEqualTypeOf<string | null>();
  });
});

describe("request's typing", () => {
  it('follows the operation: path and body required where the operation needs them, bytes for non-JSON answers', async () => {
    const stand = standInFetch(() => ({ status: 200, json: {} }));
    const hc = new Headcount({ apiKey: 'hc_test_x', fetch: stand.fetch });

    expectTypeOf<ResponseOf<'getQuestion'>>().toEqualTypeOf<{ question: Schemas['Question'] }>();
    expectTypeOf<ResponseOf<'askQuestion'>>().toEqualTypeOf<{ question: Schemas['Question'] }>();
    expectTypeOf<ResponseOf<'exportAnswersCsv'>>().toEqualTypeOf<Uint8Array>();
    expectTypeOf<ResponseOf<'getBalance'>>().toEqualTypeOf<Schemas['Balance']>();
    expectTypeOf<RequestOptions<'getBalance'>['idempotencyKey']>().toEqualTypeOf<string | undefined>();

    await hc.request('getBalance');
    await hc.request('getQuestion', { path: { id: 'q_1' } });
    await hc.request('listQuestions');
    await hc.request('askQuestion', { body: { draft: { type: 'free_text', text: 'Anything?' } }, idempotencyKey: 'k' });
    // Checked by the compiler only (never run).
    const mistakes = async () => {
      // @ts-expect-error the path id is required
      await hc.request('getQuestion');
      // @ts-expect-error the body is required
      await hc.request('askQuestion', {});
      // @ts-expect-error unknown body field
      await hc.request('askQuestion', { body: { draft: { type: 'free_text', text: 'x' }, colour: 'red' } });
      // @ts-expect-error getBalance takes no path
      await hc.request('getBalance', { path: { id: 'x' } });
      // @ts-expect-error a query value of the wrong type
      await hc.request('listQuestions', { query: { limit: 'ten' } });
    };
    expect(typeof mistakes).toBe('function');
    expect(stand.calls.length).toBeGreaterThan(0);
  });
});
