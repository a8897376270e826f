import type { Actor } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ShownPricesRepository } from './shown-prices.repository.ts';

/** How long a shown price may be confirmed: the window of MCP's derived retry keys (mcp-idempotency.ts). */
export const PRICE_SHOWN_FOR_MS = 10 * 60_000;
/** Shown prices are deleted an hour after they were shown (the hourly reap). */
const KEPT_MS = 60 * 60_000;

/**
 * "Nothing is spent without the price being shown first" (docs/agents.md "Safety rules"): MCP's
 * `ask` and `add_heads` record the price their first call showed, and a `confirm: true` goes
 * ahead only when the same call (`priceKey`: the credential, the tool and its arguments) was
 * priced in the last ten minutes at no less than it costs now. In the database, so a confirm
 * that reaches another process of the service, or comes after a restart, still counts.
 */
export function createShownPricesService(deps: { repo: ShownPricesRepository; clock: Clock }) {
  const { repo, clock } = deps;
  return {
    async remember(actor: Actor, priceKey: string, credits: number): Promise<void> {
      await repo.remember(actor.accountId, priceKey, credits, clock.now());
    },

    /** The call was priced in the window at `credits` or more (a price that rose since must be shown again). */
    async shown(actor: Actor, priceKey: string, credits: number): Promise<boolean> {
      const row = await repo.find(actor.accountId, priceKey);
      return row !== null && clock.now().getTime() - row.shownAt.getTime() < PRICE_SHOWN_FOR_MS && row.credits >= credits;
    },

    async reap(): Promise<number> {
      return repo.deleteShownBefore(new Date(clock.now().getTime() - KEPT_MS));
    },
  };
}
export type ShownPricesService = ReturnType<typeof createShownPricesService>;
