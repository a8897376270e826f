import type { Db } from '../../db/database.ts';
import { AppError } from '../../lib/errors.ts';
import { createIdempotencyRepository, type IdempotencyKeyRow } from './idempotency.repository.ts';

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

interface Claim {
  accountId: string;
  key: string;
  requestHash: string;
  now: Date;
}

/**
 * The stored response of a key, to replay; another body under the same key is refused. The
 * column holds what withIdempotency wrote for this key's request, `JSON.stringify` of a `T`, so it
 * is read back as that `T`: the one place the stored JSON gets its type.
 */
function replay<T>(row: IdempotencyKeyRow, requestHash: string): Stored<T> {
  if (row.request_hash !== requestHash) {
    throw new AppError('idempotency_conflict', 'This Idempotency-Key was already used with a different request; nothing was spent.');
  }
  return { status: row.response_status, body: row.response_body as T, replayed: true };
}

/**
 * A completed request under this key, read before any other work: a retry replays it even when
 * the request would no longer pass today (a scheduledFor now in the past, a draft deleted since),
 * and another body under the same key is refused before anything else is looked at.
 */
export async function storedResponse<T>(db: Db, claim: Claim): Promise<Stored<T> | null> {
  const existing = await createIdempotencyRepository(db).findUnexpired(claim.accountId, claim.key, claim.now);
  return existing ? replay<T>(existing, claim.requestHash) : null;
}

export async function withIdempotency<T>(tx: Db, claim: Claim, work: () => Promise<{ status: number; body: T }>): Promise<Stored<T>> {
  const keys = createIdempotencyRepository(tx);
  // One request per key at a time: a concurrent twin gets 409 at once instead of queuing (R1.2).
  if (!(await keys.tryLockKey(claim.accountId, claim.key, tx))) throw new AppError('idempotency_in_progress', undefined, undefined, { 'Retry-After': '1' });

  const existing = await keys.find(claim.accountId, claim.key, tx);
  if (existing && existing.expires_at > claim.now) return replay<T>(existing, claim.requestHash);
  if (existing) await keys.remove(claim.accountId, claim.key, tx);

  const result = await work();
  await keys.insert(
    {
      account_id: claim.accountId,
      key: claim.key,
      request_hash: claim.requestHash,
      response_status: result.status,
      response_body: JSON.stringify(result.body),
      created_at: claim.now,
      expires_at: new Date(claim.now.getTime() + IDEMPOTENCY_WINDOW_MS),
    },
    tx,
  );
  return { ...result, replayed: false };
}
