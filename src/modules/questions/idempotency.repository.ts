import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { IdempotencyKeysTable } from '../../db/schema.ts';

export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>;

/** SQL of the idempotency keys (RELIABILITY R1); the rules are in idempotency.ts. */
export function createIdempotencyRepository(db: Db) {
  return {
    /**
     * The key's advisory lock for the rest of the transaction, taken without waiting: false when
     * another request under the same key holds it (R1.2).
     */
    async tryLockKey(accountId: string, key: string, tx: Db): Promise<boolean> {
      const locked = await sql<{ ok: boolean }>`SELECT pg_try_advisory_xact_lock(hashtext(${`${accountId}:${key}`})) AS ok`.execute(tx);
      return Boolean(locked.rows[0]?.ok);
    },

    /** The key's stored response while its window lasts (expiry after `now`). */
    async findUnexpired(accountId: string, key: string, now: Date, tx: Db = db): Promise<IdempotencyKeyRow | undefined> {
      return tx.selectFrom('idempotency_keys').selectAll().where('account_id', '=', accountId).where('key', '=', key).where('expires_at', '>', now).executeTakeFirst();
    },

    /** The key's row, expired or not (an expired one is removed before the key is claimed again). */
    async find(accountId: string, key: string, tx: Db = db): Promise<IdempotencyKeyRow | undefined> {
      return tx.selectFrom('idempotency_keys').selectAll().where('account_id', '=', accountId).where('key', '=', key).executeTakeFirst();
    },

    async remove(accountId: string, key: string, tx: Db = db): Promise<void> {
      await tx.deleteFrom('idempotency_keys').where('account_id', '=', accountId).where('key', '=', key).execute();
    },

    async insert(row: Insertable<IdempotencyKeysTable>, tx: Db = db): Promise<void> {
      await tx.insertInto('idempotency_keys').values(row).execute();
    },

    /** Deletes keys whose window has ended; returns how many. */
    async deleteExpired(now: Date, tx: Db = db): Promise<number> {
      const result = await tx.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
export type IdempotencyRepository = ReturnType<typeof createIdempotencyRepository>;
