import { describe, expect, it } from 'vitest';
import { planSpend } from './credit-lots.ts';

const at = new Date('2026-11-23T12:00:00.000Z');
const lot = (id: string, remaining: number, expires: string | null) => ({ id, remaining, expires_at: expires ? new Date(expires) : null });

describe('planSpend', () => {
  it('takes soonest-expiring first, in the order given, and never-expiring credits last', () => {
    const lots = [lot('a', 30, '2026-11-24T00:00:00.000Z'), lot('b', 50, '2026-12-01T00:00:00.000Z'), lot('c', 100, null)];
    expect(planSpend(lots, 60, at)).toEqual({ spendable: 180, uses: [{ lotId: 'a', amount: 30 }, { lotId: 'b', amount: 30 }] });
  });

  it('never draws on a lot past its expiry, even one the expiry job has not emptied yet', () => {
    const lots = [lot('gone', 500, '2026-11-23T11:59:59.999Z'), lot('ok', 40, null)];
    expect(planSpend(lots, 40, at)).toEqual({ spendable: 40, uses: [{ lotId: 'ok', amount: 40 }] });
    expect(planSpend(lots, 41, at)).toEqual({ spendable: 40, uses: null });
  });

  it('a lot expires at its instant: expiring exactly now is expired', () => {
    expect(planSpend([lot('edge', 10, at.toISOString())], 1, at)).toEqual({ spendable: 0, uses: null });
  });
});
