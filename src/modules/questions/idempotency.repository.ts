import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { IdempotencyKeysTable } from '../../db/schema.ts';

export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>;

/** A key to claim for a request: its account, the request's hash, and its 24-hour window. */
export interface KeyClaim {
  accountId: string;
  key: string;
  requestHash: string;
  now: Date;
  expiresAt: Date;
}

/** What a claim found: the key's advisory lock was free (`locked`), and no stored response holds the key (`claimed`). */
export interface KeyClaimOutcome {
  locked: boolean;
  claimed: boolean;
}

/** The response stored under a claimed key: `body` is its JSON text. */
export interface KeyResponse {
  accountId: string;
  key: string;
  status: number;
  body: string;
}

interface ClaimOutcomeRow {
  key_locked: boolean | null;
  key_claimed: boolean;
}

/**
 * The claim of a key as two CTEs, `key_lock` and `key_claim` (RELIABILITY R1.2), so that it can
 * be the first part of the statement of the request's first write (questions.repository.ts
 * `insertReturning`), which selects FROM `key_claim`: one row when the key was claimed, none
 * otherwise, so the write happens only then.
 *
 * - `key_lock`: the key's advisory lock for the rest of the transaction, taken without waiting:
 *   false when another request under the same key holds it (its twin gets 409 at once).
 * - `key_claim`, only when locked: the key's row, inserted now with a placeholder response that
 *   the same transaction replaces (`complete`) before it commits, or rolls back with everything
 *   else. A row still inside its window is left alone (the request replays it: nothing is
 *   claimed); an expired one is taken over. INSERT … ON CONFLICT sees rows committed after the
 *   statement's snapshot was taken, so a twin that committed while this statement waited is
 *   never missed (a plain SELECT here could miss it).
 */
export function claimCtes(claim: KeyClaim): RawBuilder<unknown>[] {
  return [
    sql`key_lock AS (SELECT pg_try_advisory_xact_lock(hashtext(${`${claim.accountId}:${claim.key}`})) AS locked)`,
    sql`key_claim AS (
      INSERT INTO idempotency_keys (account_id, key, request_hash, response_status, response_body, created_at, expires_at)
      SELECT ${claim.accountId}, ${claim.key}, ${claim.requestHash}, 0, 'null'::jsonb, ${claim.now}, ${claim.expiresAt} FROM key_lock WHERE locked
      ON CONFLICT (account_id, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, response_status = EXCLUDED.response_status,
        response_body = EXCLUDED.response_body, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
      WHERE idempotency_keys.expires_at <= EXCLUDED.created_at
      RETURNING 1 AS claimed)`,
  ];
}

/** The claim's outcome, as two columns (`key_locked`, `key_claimed`) of the carrying statement's result. */
export const CLAIM_OUTCOME = sql`(SELECT locked FROM key_lock) AS key_locked, EXISTS (SELECT FROM key_claim) AS key_claimed`;

/** Reads the CLAIM_OUTCOME columns of a result row. */
export function claimOutcome(row: ClaimOutcomeRow | undefined): KeyClaimOutcome {
  return { locked: row?.key_locked === true, claimed: row?.key_claimed === true };
}

/** SQL of the idempotency keys (RELIABILITY R1); the rules are in idempotency.ts. */
export function createIdempotencyRepository(db: Db) {
  return {
    /** The key's stored response while its window lasts (expiry after `now`). */
    async findUnexpired(accountId: string, key: string, now: Date, tx: Db = db): Promise<IdempotencyKeyRow | undefined> {
      return tx.selectFrom('idempotency_keys').selectAll().where('account_id', '=', accountId).where('key', '=', key).where('expires_at', '>', now).executeTakeFirst();
    },

    /**
     * Claims the key alone, in one statement (claimCtes): whether its lock was free, and whether
     * the key was claimed.
     */
    async claim(claim: KeyClaim, tx: Db): Promise<KeyClaimOutcome> {
      const result = await sql<ClaimOutcomeRow>`WITH ${sql.join(claimCtes(claim))} SELECT ${CLAIM_OUTCOME}`.execute(tx);
      return claimOutcome(result.rows[0]);
    },

    /** Stores the response of the request that claimed the key (its row is this transaction's own). */
    async complete(key: KeyResponse, tx: Db): Promise<void> {
      await tx.updateTable('idempotency_keys').set({ response_status: key.status, response_body: key.body }).where('account_id', '=', key.accountId).where('key', '=', key.key).execute();
    },

    /** The same as `complete`, as a CTE named `<prefix>key` for another write's statement to carry (a rider, lib/statement-rider.ts). */
    completeCte(key: KeyResponse, prefix: string): RawBuilder<unknown> {
      return sql`${sql.id(`${prefix}key`)} AS (
        UPDATE idempotency_keys SET response_status = ${key.status}, response_body = ${key.body}
        WHERE account_id = ${key.accountId} AND key = ${key.key} RETURNING 1)`;
    },

    /** Deletes keys whose window has ended; returns how many. */
    async deleteExpired(now: Date, tx: Db = db): Promise<number> {
      const result = await tx.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
export type IdempotencyRepository = ReturnType<typeof createIdempotencyRepository>;
