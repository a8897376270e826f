import type { RawBuilder } from 'kysely';

/**
 * A write that rides in another repository's statement, so that both cost one round trip (issue
 * 15: every statement of the ask costs a round trip and app CPU, and the balance row is held
 * while they run). The rider's repository writes its SQL (ARCHITECTURE §3 rule 3); the host adds
 * it to its statement's WITH list and sets `carried` once that statement has run. A host that
 * does not run (a free question reserves nothing) leaves `carried` false, and whoever made the
 * rider writes it alone.
 *
 * The rider's statements write rows no one else can be waiting for (a new outbox event, the
 * caller's own idempotency key): they take no lock of the lock order (docs/credits.md), so where
 * they run in the host's statement does not matter.
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
