import type { RawBuilder } from 'kysely';

/**
 * A write that rides in another repository's statement, so that both cost one round trip (issue
 * 15: every statement of the ask costs a round trip and app CPU, and the balance row is held
 * while they run). The rider's repository writes its SQL (ARCHITECTURE §3 rule 3); the host adds
 * it to its statement's WITH list and sets `carried` once that statement has run. A host that
 * does not run (a free question reserves nothing) leaves `carried` false, and whoever made the
 * rider writes it alone.
 *
 * Locks: the sub-statements of one statement run in no set order, so a rider may take a lock of
 * the lock order (docs/credits.md) only where that order cannot be broken by it. Most riders write
 * rows no one else can be waiting for (a new outbox event, the caller's own idempotency key, a
 * timer) and take none. The answer batch's riders (answers.repository.ts insertMany, whose insert
 * takes none either) update the question rows the batch already holds, and take the balances, the
 * last locks of its transaction, in account order inside their own CTEs
 * (credits-balances.repository.ts spendReservedRider).
 */
export interface StatementRider {
  /**
   * `name AS (data-modifying statement)` items for the host's WITH list, each name starting with
   * `prefix` (the host gives each rider its own, so two riders never clash).
   */
  ctes(prefix: string): RawBuilder<unknown>[];
  /** Set by the host once its statement has run: the rider's rows are written. */
  carried: boolean;
}
