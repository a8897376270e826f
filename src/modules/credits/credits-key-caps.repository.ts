import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/**
 * SQL of the per-key daily cap (R3.4): each key's spend of the day, and what a capped key
 * reserved for each question so that a refund the same day gives the cap back. Locked after the
 * balance row, before the lots (docs/credits.md "Lock order"). A reservation charges them in its
 * own statement (credits-reserve.repository.ts); here they are read and given back.
 */
export function createCreditsKeyCapsRepository(db: Db) {
  return {
    async spentToday(keyId: string, day: string, tx: Db = db): Promise<number> {
      const row = await tx.selectFrom('key_daily_spend').select('spent').where('key_id', '=', keyId).where('day', '=', day).executeTakeFirst();
      return row?.spent ?? 0;
    },

    /** What a `connection.cap_warning` names: the key or OAuth connection (migration 0015), read only when one is sent. */
    async credentialIdentity(keyId: string, tx: Db = db): Promise<{ id: string; accountId: string; kind: 'key' | 'oauth'; name: string | null } | undefined> {
      const row = await tx.selectFrom('api_keys').select(['id', 'account_id', 'kind', 'name', 'client_id']).where('id', '=', keyId).executeTakeFirst();
      if (!row) return undefined;
      // A connection is named after its app (the client's name, else its id), as GET /v1/connections shows it.
      return { id: row.id, accountId: row.account_id, kind: row.kind, name: row.kind === 'oauth' ? (row.name ?? row.client_id) : row.name };
    },

    /**
     * Gives back up to `amount` of what capped keys reserved for the question on `day` to those
     * keys' daily spend, once (`returned` counts what went back). Returns what went back.
     */
    async returnCapCharges(questionId: string, day: string, amount: number, tx: Db): Promise<number> {
      const charges = await tx
        .selectFrom('key_cap_charges')
        .select(['key_id', 'amount', 'returned'])
        .where('question_id', '=', questionId)
        .where('day', '=', day)
        .where(sql<boolean>`returned < amount`)
        .orderBy('key_id')
        .forUpdate()
        .execute();
      let left = amount;
      for (const charge of charges) {
        if (left === 0) break;
        const give = Math.min(left, charge.amount - charge.returned);
        await tx.updateTable('key_cap_charges').set({ returned: sql`returned + ${give}` }).where('question_id', '=', questionId).where('key_id', '=', charge.key_id).where('day', '=', day).execute();
        await tx.updateTable('key_daily_spend').set({ spent: sql`spent - ${give}` }).where('key_id', '=', charge.key_id).where('day', '=', day).execute();
        left -= give;
      }
      return amount - left;
    },
  };
}
export type CreditsKeyCapsRepository = ReturnType<typeof createCreditsKeyCapsRepository>;
