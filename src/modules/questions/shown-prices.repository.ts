import type { Db } from '../../db/database.ts';

/** SQL of the prices MCP's spending tools have shown (migration 0025; mcp/mcp-shown-price.ts). */
export function createShownPricesRepository(db: Db) {
  return {
    /** Records (or renews) the price shown for a call. */
    async remember(accountId: string, priceKey: string, credits: number, at: Date): Promise<void> {
      await db
        .insertInto('shown_prices')
        .values({ account_id: accountId, price_key: priceKey, credits, shown_at: at })
        .onConflict((oc) => oc.columns(['account_id', 'price_key']).doUpdateSet({ credits, shown_at: at }))
        .execute();
    },

    /** The price last shown for a call, and when. */
    async find(accountId: string, priceKey: string): Promise<{ credits: number; shownAt: Date } | null> {
      const row = await db.selectFrom('shown_prices').select(['credits', 'shown_at']).where('account_id', '=', accountId).where('price_key', '=', priceKey).executeTakeFirst();
      return row ? { credits: Number(row.credits), shownAt: row.shown_at as Date } : null;
    },

    async deleteShownBefore(before: Date): Promise<number> {
      const result = await db.deleteFrom('shown_prices').where('shown_at', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
export type ShownPricesRepository = ReturnType<typeof createShownPricesRepository>;
