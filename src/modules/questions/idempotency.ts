import type { Db } from '../../db/database.ts';
import { AppError } from '../../lib/errors.ts';
import { createIdempotencyRepository, type IdempotencyKeyRow, type KeyClaim, type KeyClaimOutcome, type KeyResponse } from './idempotency.repository.ts';
import type { StatementRider } from '../../lib/statement-rider.ts';

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
 * A completed request under this key, read before the request's own checks can refuse it: a retry
 * replays it even when the request would no longer pass today (a scheduledFor now in the past, a
 * draft deleted since), and another body under the same key is refused before what is wrong with
 * that body. (The ask reads it only when its planning failed: a request that plans finds a stored
 * response through its claim in withIdempotency.)
 */
export async function storedResponse<T>(db: Db, claim: Claim): Promise<Stored<T> | null> {
  const existing = await createIdempotencyRepository(db).findUnexpired(claim.accountId, claim.key, claim.now);
  return existing ? replay<T>(existing, claim.requestHash) : null;
}

/** Thrown inside the work when the claim found a stored response: withIdempotency replays it. */
class KeyAlreadyAnswered extends Error {}

/**
 * The key of the request running in withIdempotency's transaction. The work claims it FIRST,
 * before any other lock or write, in one of two ways:
 * - `claim()`: a statement of its own;
 * - `claimCtes(toClaim)` in the statement of its first write, which must write only when the CTE
 *   `key_claim` has a row (questions.repository.ts `insertReturning` selects FROM it), then
 *   `settle()` with that statement's outcome. One round trip fewer on the ask.
 * Either way a busy key throws 409 `idempotency_in_progress`, and a stored response ends the work
 * (nothing was written) and is replayed. The response is stored by `completion(result)` riding in
 * the work's last write, or by withIdempotency after the work when no write carried it.
 */
export interface RequestKey<T> {
  claim(): Promise<void>;
  /** What `claimCtes` (idempotency.repository.ts) claims for this request. */
  readonly toClaim: KeyClaim;
  settle(outcome: KeyClaimOutcome): void;
  completion(result: { status: number; body: T }): StatementRider;
}

/**
 * Runs `work` under the claimed key, in `tx` (RELIABILITY R1.2): the key's row is written in the
 * same transaction as the work, so a failed request leaves no key (its rollback removes it) and a
 * completed one commits with its stored response.
 */
export async function withIdempotency<T>(tx: Db, claim: Claim, work: (key: RequestKey<T>) => Promise<{ status: number; body: T }>): Promise<Stored<T>> {
  const keys = createIdempotencyRepository(tx);
  const claimRow: KeyClaim = { ...claim, expiresAt: new Date(claim.now.getTime() + IDEMPOTENCY_WINDOW_MS) };
  const response = (result: { status: number; body: T }): KeyResponse => ({ accountId: claim.accountId, key: claim.key, status: result.status, body: JSON.stringify(result.body) });
  let settled = false;
  // The response a rider of the work's last write stores, if the work asked for one.
  const stored: { result?: { status: number; body: T }; rider?: StatementRider } = {};
  const settle = (outcome: KeyClaimOutcome) => {
    // One request per key at a time: a concurrent twin gets 409 at once instead of queuing.
    if (!outcome.locked) throw new AppError('idempotency_in_progress', undefined, undefined, { 'Retry-After': '1' });
    settled = true;
    if (!outcome.claimed) throw new KeyAlreadyAnswered();
  };

  let result: { status: number; body: T };
  try {
    result = await work({
      toClaim: claimRow,
      settle,
      async claim() {
        settle(await keys.claim(claimRow, tx));
      },
      completion(result) {
        const body = response(result);
        stored.result = result;
        stored.rider = { carried: false, ctes: (prefix) => [keys.completeCte(body, prefix)] };
        return stored.rider;
      },
    });
  } catch (error) {
    if (!(error instanceof KeyAlreadyAnswered)) throw error;
    // A twin completed after this request's first look (storedResponse) and before its claim.
    // Read in a statement of its own: its snapshot is taken after the claim, so it sees that row.
    const existing = await keys.findUnexpired(claim.accountId, claim.key, claim.now, tx);
    if (!existing) throw new AppError('idempotency_in_progress', undefined, undefined, { 'Retry-After': '1' });
    return replay<T>(existing, claim.requestHash);
  }
  if (!settled) throw new Error('withIdempotency: the work never claimed its key');
  if (!(stored.rider?.carried && stored.result === result)) await keys.complete(response(result), tx);
  return { ...result, replayed: false };
}
