import { ANSWERING_COUNTRIES } from '../../src/modules/draft/countries.data.ts';
import { AGE_BANDS, GENDERS } from '../../src/modules/draft/question-types.ts';
import { expectKeys, isObject, type Scenario } from './types.ts';

/**
 * POST /v1/billing/estimate, the request a form sends on every change. It validates the draft,
 * prices it, and counts the matching pool (one SQL statement, cached 30 s per targeting by
 * PoolService), so three rows: a valid draft (cached pool count), a broken draft (validation work,
 * no pool count since the targeting is broken), and valid drafts whose targeting changes on every
 * request (every pool count misses the cache: what a burst of different forms costs).
 */
const PATH = '/v1/billing/estimate';

export const VALID_DRAFT = {
  type: 'single_choice',
  text: 'Which name would you pick for a budgeting app?',
  language: 'en',
  options: [{ label: 'Pennywise' }, { label: 'Tally' }, { label: 'Kitty' }],
  // 30 answers: the GB+US pool with one tag is ~50 of the 2,000 seeded heads, and a pool smaller
  // than n short-cuts the time-to-answer to "the whole window"; 30 keeps the full computation.
  n: 30,
  tier: 1,
  targeting: { countries: ['GB', 'US'], tags: ['int_travel'] },
};

/** Right JSON types (so 200, not 400), wrong in many ways; each problem is one validation item. */
export const BROKEN_DRAFT = {
  type: 'single_choice',
  text: '   ', // blank
  language: 'klingon', // not a language code
  options: [{ label: 'Yes' }, { label: 'yes' }, { label: '' }], // repeated, blank
  n: 3, // below 10
  tier: 2,
  targeting: { countries: ['gb', 'XX'], tags: ['not_a_tag'] }, // lower case, unknown, unknown tag
  scheduledFor: '2020-01-01T00:00:00Z', // in the past
};
const MIN_BROKEN_ITEMS = 6;

function checkEstimate(body: unknown, expect: 'valid' | 'broken'): string[] {
  const problems = expectKeys(body, ['creditsPerAnswer', 'creditsTotal', 'payPerAnswer', 'etaMinutes', 'traits', 'breakdown', 'breakdownLine', 'validation', 'poolSize']);
  if (problems.length) return problems;
  const e = body as Record<string, unknown>;
  if (!Array.isArray(e.validation)) return ['validation is not an array'];
  if (!Array.isArray(e.breakdown) || e.breakdown.length < 2) problems.push('breakdown has fewer than 2 lines');
  if (expect === 'valid') {
    if (e.validation.length) problems.push(`valid draft got validation items: ${JSON.stringify(e.validation)}`);
    if (typeof e.poolSize !== 'number' || e.poolSize <= 0) problems.push(`poolSize should be a positive number, got ${JSON.stringify(e.poolSize)}`);
    if (typeof e.creditsTotal !== 'number' || e.creditsTotal <= 0) problems.push('creditsTotal should be positive');
  } else {
    const fields = e.validation.map((item) => (isObject(item) ? item.field : null));
    if (fields.length < MIN_BROKEN_ITEMS) problems.push(`expected at least ${MIN_BROKEN_ITEMS} validation items, got ${fields.length}: ${JSON.stringify(fields)}`);
    if (e.poolSize !== null) problems.push('poolSize should be null while the targeting is broken');
  }
  return problems;
}

export const estimate: Scenario = {
  id: 'estimate',
  title: 'POST estimate, valid draft',
  target: 'app',
  method: 'POST',
  path: PATH,
  bodies: [{ draft: VALID_DRAFT }],
  check: (body) => checkEstimate(body, 'valid'),
};

export const estimateBroken: Scenario = {
  id: 'estimate-broken',
  title: 'POST estimate, broken draft',
  target: 'app',
  method: 'POST',
  path: PATH,
  bodies: [{ draft: BROKEN_DRAFT }],
  check: (body) => checkEstimate(body, 'broken'),
};

/**
 * More distinct targetings than PoolService keeps (2,000, dropped oldest first), sent in a cycle,
 * so no request ever finds its count in the cache.
 */
function uncachedDrafts(count: number): unknown[] {
  const codes = ANSWERING_COUNTRIES.map((c) => c.code);
  const drafts: unknown[] = [];
  for (let i = 0; drafts.length < count; i++) {
    const ageMask = 1 + (i % 63); // a non-empty subset of the 6 age bands
    const genderMask = 1 + (Math.floor(i / 63) % 7); // a non-empty subset of the 3 genders
    const country = codes[Math.floor(i / (63 * 7)) % codes.length];
    drafts.push({
      draft: {
        ...VALID_DRAFT,
        targeting: {
          countries: [country],
          tags: [],
          ageBands: AGE_BANDS.filter((_, b) => ageMask & (1 << b)),
          genders: GENDERS.filter((_, b) => genderMask & (1 << b)),
        },
      },
    });
  }
  return drafts;
}

export const estimateUncached: Scenario = {
  id: 'estimate-uncached',
  title: 'POST estimate, targeting varies',
  target: 'app',
  method: 'POST',
  path: PATH,
  bodies: uncachedDrafts(4_000),
  check(body) {
    const problems = expectKeys(body, ['validation', 'poolSize']);
    if (problems.length) return problems;
    const e = body as Record<string, unknown>;
    // Narrow targetings may match nobody; what matters is that the count ran (a number, not null).
    return Array.isArray(e.validation) && e.validation.length === 0 && typeof e.poolSize === 'number' ? [] : [`unexpected: ${JSON.stringify(body).slice(0, 300)}`];
  },
};
