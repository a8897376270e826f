import { sql, type Insertable, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { OutboxEventsTable } from '../../db/schema.ts';

/** What a delivery to a turned-off endpoint says (the same as the pending ones that fail when it is turned off). */
export const TURNED_OFF = 'The endpoint was turned off.';

/**
 * An event's two writes (the event once, a delivery per subscribed endpoint: pending, or failed
 * for one turned off) as CTEs named `<prefix>event` and `<prefix>deliveries`, for a statement of
 * another repository to carry (lib/statement-rider.ts): the ask's `question.reserved` rides in
 * its reservation.
 */
function outboxEventCtes(row: Insertable<OutboxEventsTable>, prefix: string): RawBuilder<unknown>[] {
  const event = sql.id(`${prefix}event`);
  return [
    sql`${event} AS (
      INSERT INTO outbox_events (id, account_id, type, payload, unique_ref, created_at)
      VALUES (${row.id}, ${row.account_id}, ${row.type}, ${row.payload}, ${row.unique_ref}, ${row.created_at})
      ON CONFLICT (unique_ref) DO NOTHING
      RETURNING id, account_id, type, created_at)`,
    sql`${sql.id(`${prefix}deliveries`)} AS (
      INSERT INTO webhook_deliveries (endpoint_id, event_id, status, next_attempt_at, last_error, created_at, completed_at)
      SELECT e.id, ev.id,
        CASE WHEN e.enabled THEN 'pending' ELSE 'failed' END,
        CASE WHEN e.enabled THEN ev.created_at END,
        CASE WHEN e.enabled THEN NULL ELSE ${TURNED_OFF} END,
        ev.created_at,
        CASE WHEN e.enabled THEN NULL ELSE ev.created_at END
      FROM ${event} ev
      JOIN webhook_endpoints e ON e.account_id = ev.account_id
      WHERE ev.type = ANY(e.events))`,
  ];
}

/** SQL of the transactional outbox (outbox.ts says what goes in it and when). */
export function createEventsRepository(db: Db) {
  return {
    outboxEventCtes,
    /**
     * Writes an event once (another with the same unique_ref, a replayed transition, adds
     * nothing) and, in the same statement, one delivery for every endpoint of the account
     * subscribed to its type (docs/webhooks.md): pending for an enabled endpoint; for one turned
     * off, `failed` at once ("The endpoint was turned off."), so its log shows what it missed and
     * each can be redelivered once it is back on. The event and its deliveries commit or vanish
     * together, and an account without endpoints pays no extra round trip for webhooks.
     */
    async insertOutboxEvent(row: Insertable<OutboxEventsTable>, tx: Db = db): Promise<void> {
      const [event, deliveries] = outboxEventCtes(row, '');
      await sql`WITH ${event}, ${deliveries} SELECT 1`.execute(tx);
    },

  };
}
export type EventsRepository = ReturnType<typeof createEventsRepository>;
