import type { CreditPack } from './credits.schemas.ts';

/**
 * The credit packs a signed-in person can buy (issue 10; docs/credits.md "Credit packs"), served
 * in GET /v1/config as `creditPacks` and named by `pack` in POST /v1/billing/checkout. A credit is
 * one minor unit of the account's currency (docs/credits.md), so a pack's price is the same number
 * of pence or cents in every currency: its credits less the pack's discount. Bigger packs are
 * cheaper per credit (credit-packs.test.ts holds it). The table is one place so that a currency
 * can be given its own rounded price later without changing the shape.
 */
const pack = (id: string, credits: number, price: number): CreditPack => ({
  id,
  credits,
  prices: { GBP: price, USD: price, EUR: price, CAD: price },
  validForDays: 365,
});

export const CREDIT_PACKS: readonly CreditPack[] = [
  pack('starter', 1_000, 1_000), // face value
  pack('standard', 5_000, 4_750), // 5% off
  pack('studio', 20_000, 18_000), // 10% off
  pack('scale', 100_000, 85_000), // 15% off
];

export function findCreditPack(id: string): CreditPack | undefined {
  return CREDIT_PACKS.find((pack) => pack.id === id);
}
