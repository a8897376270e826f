import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../lib/errors.ts';

/**
 * Idempotency keys (RELIABILITY R1, after Stripe and B. Leach): scoped per account, claimed in the
 * same transaction as the work they protect, replayed for 24 hours. Only successful responses are
 * stored: a 400, 402 or 422 rolls the claim back with everything else, so the same key can be
 * retried once the problem is fixed.
 */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface Stored<T> {
  status: number;
  body: T;
  replayed: boolean;
}

/**
 * A completed request under this key, read before any other work: a retry replays it even when
 * the request would no longer pass today (a scheduledFor now in the past, a draft deleted since),
 * and another body under the same key is refused before anything else is looked at.
 */
export async function storedResponse<T>(db: Db, claim: { accountId: string; key: string; requestHash: string; now: Date }): Promise<Stored<T> | null> {
  const existing = await db.selectFrom('idempotency_keys').selectAll().where('account_id', '=', claim.accountId).where('key', '=', claim.key).where('expires_at', '>', claim.now).executeTakeFirst();
  if (!existing) return null;
  if (existing.request_hash !== claim.requestHash) {
    throw new AppError('idempotency_conflict', 'This Idempotency-Key was already used with a different request; nothing was spent.');
  }
  return { status: existing.response_status, body: existing.response_body as unknown as T, replayed: true };
}

export async function withIdempotency<T>(
  tx: Db,
  claim: { accountId: string; key: string; requestHash: string; now: Date },
  work: () => Promise<{ status: number; body: T }>,
): Promise<Stored<T>> {
  // One request per key at a time: a concurrent twin gets 409 at once instead of queuing (R1.2).
  const locked = await sql<{ ok: boolean }>`SELECT pg_try_advisory_xact_lock(hashtext(${`${claim.accountId}:${claim.key}`})) AS ok`.execute(tx);
  if (!locked.rows[0]?.ok) throw new AppError('idempotency_in_progress', undefined, undefined, { 'Retry-After': '1' });

  const existing = await tx.selectFrom('idempotency_keys').selectAll().where('account_id', '=', claim.accountId).where('key', '=', claim.key).executeTakeFirst();
  if (existing && existing.expires_at > claim.now) {
    if (existing.request_hash !== claim.requestHash) {
      throw new AppError('idempotency_conflict', 'This Idempotency-Key was already used with a different request; nothing was spent.');
    }
    return { status: existing.response_status, body: existing.response_body as unknown as T, replayed: true };
  }
  if (existing) await tx.deleteFrom('idempotency_keys').where('account_id', '=', claim.accountId).where('key', '=', claim.key).execute();

  const result = await work();
  await tx
    .insertInto('idempotency_keys')
    .values({
      account_id: claim.accountId,
      key: claim.key,
      request_hash: claim.requestHash,
      response_status: result.status,
      response_body: JSON.stringify(result.body),
      created_at: claim.now,
      expires_at: new Date(claim.now.getTime() + IDEMPOTENCY_WINDOW_MS),
    })
    .execute();
  return { ...result, replayed: false };
}
