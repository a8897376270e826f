import type { Db } from '../../db/database.ts';

/** SQL of the portal's form nonces (migration 0017); the rules are in form-nonces.service.ts. */
export function createFormNoncesRepository(db: Db) {
  return {
    /** Takes the nonce for the account: true the first time, false when a post already took it. */
    async claim(accountId: string, nonce: string, at: Date, tx: Db = db): Promise<boolean> {
      const row = await tx
        .insertInto('form_nonces')
        .values({ account_id: accountId, nonce, created_at: at })
        .onConflict((oc) => oc.columns(['account_id', 'nonce']).doNothing())
        .returning('nonce')
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Gives a nonce back (the work it guarded did not happen). */
    async release(accountId: string, nonce: string, tx: Db = db): Promise<void> {
      await tx.deleteFrom('form_nonces').where('account_id', '=', accountId).where('nonce', '=', nonce).execute();
    },

    /** Deletes nonces claimed before `before`; returns how many. */
    async deleteOlderThan(before: Date, tx: Db = db): Promise<number> {
      const result = await tx.deleteFrom('form_nonces').where('created_at', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
export type FormNoncesRepository = ReturnType<typeof createFormNoncesRepository>;
