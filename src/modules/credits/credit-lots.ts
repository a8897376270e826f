import type { LotUse, OpenLot } from './credits-lots.repository.ts';

/**
 * Which lots pay for `amount` at `at` (docs/credits.md "Expiry"): soonest-expiring first, never
 * a lot whose expiry has passed, whether or not the expiry job has emptied it yet. `lots` come in
 * spending order (repository `lockOpenLots`). `uses` is null when the spendable credits do not
 * cover the amount.
 */
export function planSpend(lots: ReadonlyArray<Pick<OpenLot, 'id' | 'remaining' | 'expires_at'>>, amount: number, at: Date): { spendable: number; uses: LotUse[] | null } {
  const live = lots.filter((lot) => lot.expires_at === null || lot.expires_at > at);
  const spendable = live.reduce((sum, lot) => sum + lot.remaining, 0);
  if (spendable < amount) return { spendable, uses: null };
  const uses: LotUse[] = [];
  let left = amount;
  for (const lot of live) {
    if (left === 0) break;
    const take = Math.min(left, lot.remaining);
    uses.push({ lotId: lot.id, amount: take });
    left -= take;
  }
  return { spendable, uses };
}
