import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { OutboxEventsTable, WebhookAttemptsTable, WebhookDeliveriesTable } from '../../db/schema.ts';

export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
/** A delivery with what lists show of its event. */
export type DeliveryListRow = DeliveryRow & { type: string; unique_ref: string };
export type AttemptRow = Selectable<WebhookAttemptsTable>;

/** What one attempt needs: where, signed with what, and the bytes to send. */
export interface AttemptTarget {
  endpoint_id: string;
  event_id: string;
  attempts: number;
  schedule_from: number;
  url: string;
  enabled: boolean;
  secret_box: string;
  previous_secret_box: string | null;
  previous_secret_until: Date | null;
  payload: unknown;
}

const PENDING = 'pending';

/** SQL of webhook deliveries and their attempts (docs/webhooks.md "Delivery"). */
export function createWebhookDeliveriesRepository(db: Db) {
  return {
    /**
     * Claims up to `limit` due deliveries for one sender until `leaseUntil`, counting the attempt
     * (so a sender killed mid-attempt leaves the attempt counted and the delivery due again when
     * the lease runs out). Fair between endpoints: an endpoint has at most `perEndpoint` attempts
     * in flight (live leases, in every process together), and each endpoint's oldest due
     * deliveries come before any endpoint's next ones; so a receiver that hangs holds at most
     * `perEndpoint` slots, however long its backlog, and every other endpoint's deliveries go on.
     * The UPDATE re-checks each row, so two senders that pick the same delivery cannot both claim it.
     */
    async claimDue(input: { now: Date; leaseUntil: Date; limit: number; perEndpoint: number }): Promise<DeliveryRow[]> {
      // 'pending' as a literal, not a parameter: the statements are prepared, and a generic plan
      // can use the partial index `webhook_deliveries_due` (WHERE status = 'pending') only if the
      // text itself says the status (docs/performance.md "Prepared statements").
      const due = (alias: string) =>
        sql`${sql.ref(`${alias}.status`)} = ${sql.lit(PENDING)} AND ${sql.ref(`${alias}.next_attempt_at`)} <= ${input.now}
            AND (${sql.ref(`${alias}.leased_until`)} IS NULL OR ${sql.ref(`${alias}.leased_until`)} < ${input.now})`;
      // Most polls find nothing due: one indexed look first, the claim only then.
      const any = await sql`SELECT 1 FROM webhook_deliveries c WHERE ${due('c')} LIMIT 1`.execute(db);
      if (any.rows.length === 0) return [];
      const claimed = await sql<DeliveryRow>`
        WITH in_flight AS (
          SELECT endpoint_id, count(*) AS n FROM webhook_deliveries
           WHERE status = ${sql.lit(PENDING)} AND leased_until >= ${input.now}
           GROUP BY endpoint_id
        ), ranked AS (
          SELECT c.endpoint_id, c.event_id, c.next_attempt_at,
                 row_number() OVER (PARTITION BY c.endpoint_id ORDER BY c.next_attempt_at, c.event_id) AS place
            FROM webhook_deliveries c
           WHERE ${due('c')}
        ), pick AS (
          SELECT r.endpoint_id, r.event_id
            FROM ranked r LEFT JOIN in_flight f ON f.endpoint_id = r.endpoint_id
           WHERE r.place <= ${input.perEndpoint} - COALESCE(f.n, 0)
           ORDER BY r.place, r.next_attempt_at
           LIMIT ${input.limit}
        )
        UPDATE webhook_deliveries d
           SET leased_until = ${input.leaseUntil}, attempts = d.attempts + 1
          FROM pick
         WHERE d.endpoint_id = pick.endpoint_id AND d.event_id = pick.event_id AND ${due('d')}
        RETURNING d.*`.execute(db);
      return claimed.rows;
    },

    async target(endpointId: string, eventId: string): Promise<AttemptTarget | undefined> {
      return db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
        .innerJoin('outbox_events as ev', 'ev.id', 'd.event_id')
        .select(['d.endpoint_id', 'd.event_id', 'd.attempts', 'd.schedule_from', 'e.url', 'e.enabled', 'e.secret_box', 'e.previous_secret_box', 'e.previous_secret_until', 'ev.payload'])
        .where('d.endpoint_id', '=', endpointId)
        .where('d.event_id', '=', eventId)
        .executeTakeFirst();
    },

    /**
     * Writes an attempt and where it leaves its delivery, if the delivery is still the one
     * claimed (same attempt count, still pending): a sender that overran its lease and lost the
     * delivery to another records nothing. Returns whether it recorded.
     */
    async recordAttempt(
      attempt: Insertable<WebhookAttemptsTable>,
      next: { status: 'pending' | 'succeeded' | 'failed'; nextAttemptAt: Date | null; error: string | null },
      tx: Db,
    ): Promise<boolean> {
      const updated = await tx
        .updateTable('webhook_deliveries')
        .set({
          status: next.status,
          next_attempt_at: next.nextAttemptAt,
          leased_until: null,
          last_attempt_at: attempt.at,
          last_status: attempt.status ?? null,
          last_error: next.error,
          last_duration_ms: attempt.duration_ms,
          completed_at: next.status === PENDING ? null : attempt.at,
        })
        .where('endpoint_id', '=', attempt.endpoint_id)
        .where('event_id', '=', attempt.event_id)
        .where('status', '=', PENDING)
        .where('attempts', '=', attempt.attempt)
        .executeTakeFirst();
      if (updated.numUpdatedRows === 0n) return false;
      await tx.insertInto('webhook_attempts').values(attempt).onConflict((oc) => oc.doNothing()).execute();
      return true;
    },

    /** Fails every pending delivery of an endpoint that was turned off. */
    async failPending(endpointId: string, reason: string, at: Date, tx: Db): Promise<void> {
      await tx
        .updateTable('webhook_deliveries')
        .set({ status: 'failed', next_attempt_at: null, leased_until: null, completed_at: at, last_error: reason })
        .where('endpoint_id', '=', endpointId)
        .where('status', '=', PENDING)
        .execute();
    },

    /**
     * Makes a delivery due now again, restarting the retry schedule from its next attempt; not
     * while an attempt at it is in flight. Returns the row, or undefined when there is none or it
     * is in flight.
     */
    async redeliver(endpointId: string, eventId: string, now: Date): Promise<DeliveryRow | undefined> {
      return db
        .updateTable('webhook_deliveries')
        .set({ status: PENDING, next_attempt_at: now, completed_at: null, schedule_from: sql`attempts` })
        .where('endpoint_id', '=', endpointId)
        .where('event_id', '=', eventId)
        .where((eb) => eb.or([eb('leased_until', 'is', null), eb('leased_until', '<', now)]))
        .returningAll()
        .executeTakeFirst();
    },

    /** A test event: written to the outbox without the fan-out, delivered to one endpoint only. */
    async insertTestEvent(event: Insertable<OutboxEventsTable>, endpointId: string, at: Date): Promise<void> {
      await db
        .with('event', (q) => q.insertInto('outbox_events').values(event).returning(['id']))
        .insertInto('webhook_deliveries')
        .columns(['endpoint_id', 'event_id', 'next_attempt_at', 'created_at'])
        .expression((q) => q.selectFrom('event').select([sql`${endpointId}::text`.as('e'), 'event.id', sql`${at}::timestamptz`.as('n'), sql`${at}::timestamptz`.as('c')]))
        .execute();
    },

    /** Newest first, `limit` after the cursor (created_at, event id). */
    async list(endpointId: string, limit: number, after: { createdAt: Date; eventId: string } | null): Promise<DeliveryListRow[]> {
      let query = db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('outbox_events as ev', 'ev.id', 'd.event_id')
        .selectAll('d')
        .select(['ev.type', 'ev.unique_ref'])
        .where('d.endpoint_id', '=', endpointId);
      if (after) query = query.where(sql<boolean>`(d.created_at, d.event_id) < (${after.createdAt}, ${after.eventId})`);
      return query.orderBy('d.created_at', 'desc').orderBy('d.event_id', 'desc').limit(limit).execute();
    },

    async find(endpointId: string, eventId: string): Promise<(DeliveryListRow & { payload: unknown }) | undefined> {
      return db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('outbox_events as ev', 'ev.id', 'd.event_id')
        .selectAll('d')
        .select(['ev.type', 'ev.unique_ref', 'ev.payload'])
        .where('d.endpoint_id', '=', endpointId)
        .where('d.event_id', '=', eventId)
        .executeTakeFirst();
    },

    async attempts(endpointId: string, eventId: string): Promise<AttemptRow[]> {
      return db.selectFrom('webhook_attempts').selectAll().where('endpoint_id', '=', endpointId).where('event_id', '=', eventId).orderBy('attempt').execute();
    },

    /** Deletes deliveries finished before `before`, with their attempts; returns how many. */
    async pruneCompleted(before: Date, limit: number): Promise<number> {
      const result = await db
        .deleteFrom('webhook_deliveries')
        .where(sql<boolean>`(endpoint_id, event_id) IN (SELECT endpoint_id, event_id FROM webhook_deliveries WHERE completed_at < ${before} LIMIT ${limit})`)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
export type WebhookDeliveriesRepository = ReturnType<typeof createWebhookDeliveriesRepository>;
