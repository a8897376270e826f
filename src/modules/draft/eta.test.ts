import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { etaMinutes, MIN_ETA_MINUTES, OPEN_WINDOW_MINUTES } from './eta.ts';

/**
 * The time to answer shown by an estimate (docs/pricing.md, "Time to answer"): more answers never
 * come faster, rush never slows a question down, and a question the panel cannot fill takes the
 * whole open window (7 days).
 */
const SEVEN_DAYS_IN_MINUTES = 7 * 24 * 60;

/** A pool of heads, active ones never more than the pool, and an n within the spec's range. */
const poolArb = fc.integer({ min: 0, max: 200_000 }).chain((poolSize) =>
  fc.record({ poolSize: fc.constant(poolSize), activeHeads: fc.integer({ min: 0, max: poolSize }) }),
);
const nArb = fc.integer({ min: 10, max: 5000 });

describe('etaMinutes', () => {
  it('the open window is 7 days, in minutes', () => {
    expect(OPEN_WINDOW_MINUTES).toBe(SEVEN_DAYS_IN_MINUTES);
  });

  it('hand-computed: 50 answers from a pool of 1000 with 100 active heads', () => {
    // reachable = 100 + 0.05 × 900 = 145 heads; 145 / 30 = 4.83 answers a minute;
    // 1 + 50 / 4.83 = 11.3 → 12 minutes. Rush: 4.83 × 1.6 = 7.73 a minute; 1 + 6.47 → 8 minutes.
    expect(etaMinutes({ n: 50, poolSize: 1000, activeHeads: 100, rush: false })).toBe(12);
    expect(etaMinutes({ n: 50, poolSize: 1000, activeHeads: 100, rush: true })).toBe(8);
  });

  it('heads not seen today still answer now and then: a pool with no active heads is slow but not closed', () => {
    // reachable = 0.05 × 10000 = 500; 500 / 30 = 16.7 a minute; 1 + 50 / 16.7 = 4
    expect(etaMinutes({ n: 50, poolSize: 10_000, activeHeads: 0, rush: false })).toBe(4);
  });

  it('never shows less than 2 minutes', () => {
    expect(MIN_ETA_MINUTES).toBe(2);
    expect(etaMinutes({ n: 10, poolSize: 1_000_000, activeHeads: 1_000_000, rush: true })).toBe(2);
  });

  it.each([false, true])('an empty pool takes the whole open window (rush %s)', (rush) => {
    for (const n of [10, 50, 5000]) expect(etaMinutes({ n, poolSize: 0, activeHeads: 0, rush })).toBe(SEVEN_DAYS_IN_MINUTES);
  });

  it('a pool smaller than n cannot fill the question: the whole open window', () => {
    expect(etaMinutes({ n: 50, poolSize: 49, activeHeads: 49, rush: true })).toBe(SEVEN_DAYS_IN_MINUTES);
    expect(etaMinutes({ n: 5000, poolSize: 4999, activeHeads: 4999, rush: false })).toBe(SEVEN_DAYS_IN_MINUTES);
    // A pool of exactly n can.
    expect(etaMinutes({ n: 50, poolSize: 50, activeHeads: 50, rush: false })).toBeLessThan(SEVEN_DAYS_IN_MINUTES);
  });

  it('is a whole number of minutes within [2, 7 days] (property)', () => {
    fc.assert(
      fc.property(nArb, poolArb, fc.boolean(), (n, pool, rush) => {
        const eta = etaMinutes({ n, ...pool, rush });
        expect(Number.isInteger(eta)).toBe(true);
        expect(eta).toBeGreaterThanOrEqual(2);
        expect(eta).toBeLessThanOrEqual(SEVEN_DAYS_IN_MINUTES);
      }),
      { numRuns: 1000 },
    );
  });

  it('pool 0 or a pool smaller than n gives the open window (property)', () => {
    fc.assert(
      fc.property(
        nArb.chain((n) => fc.record({ n: fc.constant(n), poolSize: fc.integer({ min: 0, max: n - 1 }) })).chain(({ n, poolSize }) =>
          fc.record({ n: fc.constant(n), poolSize: fc.constant(poolSize), activeHeads: fc.integer({ min: 0, max: poolSize }) }),
        ),
        fc.boolean(),
        (input, rush) => {
          expect(etaMinutes({ ...input, rush })).toBe(SEVEN_DAYS_IN_MINUTES);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('more answers never come faster (property)', () => {
    fc.assert(
      fc.property(nArb, nArb, poolArb, fc.boolean(), (a, b, pool, rush) => {
        const [fewer, more] = a <= b ? [a, b] : [b, a];
        expect(etaMinutes({ n: more, ...pool, rush })).toBeGreaterThanOrEqual(etaMinutes({ n: fewer, ...pool, rush }));
      }),
      { numRuns: 1000 },
    );
  });

  it('rush is never slower (property)', () => {
    fc.assert(
      fc.property(nArb, poolArb, (n, pool) => {
        expect(etaMinutes({ n, ...pool, rush: true })).toBeLessThanOrEqual(etaMinutes({ n, ...pool, rush: false }));
      }),
      { numRuns: 1000 },
    );
  });

  it('more active heads never make it slower (property)', () => {
    fc.assert(
      fc.property(nArb, poolArb, fc.boolean(), (n, pool, rush) => {
        fc.pre(pool.activeHeads < pool.poolSize);
        const more = { ...pool, activeHeads: pool.activeHeads + 1 };
        expect(etaMinutes({ n, ...more, rush })).toBeLessThanOrEqual(etaMinutes({ n, ...pool, rush }));
      }),
      { numRuns: 500 },
    );
  });
});
