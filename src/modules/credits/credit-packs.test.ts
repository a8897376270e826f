import { describe, expect, it } from 'vitest';
import { Value } from '@sinclair/typebox/value';
import { CURRENCIES } from '../../lib/currencies.ts';
import { CREDIT_PACKS, findCreditPack } from './credit-packs.ts';
import { CreditPackSchema } from './credits.schemas.ts';

describe('credit packs (docs/credits.md "Credit packs")', () => {
  it('fit their schema, have distinct ids, and come smallest first', () => {
    for (const pack of CREDIT_PACKS) expect(Value.Check(CreditPackSchema, pack), pack.id).toBe(true);
    expect(new Set(CREDIT_PACKS.map((p) => p.id)).size).toBe(CREDIT_PACKS.length);
    const credits = CREDIT_PACKS.map((p) => p.credits);
    expect(credits).toEqual([...credits].sort((a, b) => a - b));
  });

  it.each(CURRENCIES)('a bigger pack is cheaper per credit in %s', (currency) => {
    const perCredit = CREDIT_PACKS.map((p) => p.prices[currency] / p.credits);
    for (let i = 1; i < perCredit.length; i++) expect(perCredit[i], `${CREDIT_PACKS[i].id} in ${currency}`).toBeLessThan(perCredit[i - 1]);
  });

  it.each(CURRENCIES)('no %s price is above face value (a credit is one minor unit of the account\'s currency)', (currency) => {
    for (const pack of CREDIT_PACKS) expect(pack.prices[currency], pack.id).toBeLessThanOrEqual(pack.credits);
  });

  it('are found by id, and an unknown id finds nothing', () => {
    expect(findCreditPack('studio')?.credits).toBe(20_000);
    expect(findCreditPack('nope')).toBeUndefined();
  });
});
