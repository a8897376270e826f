import { sql, type Insertable, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { OutboxEventsTable } from '../../db/schema.ts';

/** SQL of the transactional outbox (outbox.ts says what goes in it and when). */
export function createEventsRepository(db: Db) {
  return {
    /**
     * Writes an event once (another with the same unique_ref, a replayed transition, adds
     * nothing) and, in the same statement, one pending delivery for every enabled endpoint of the
     * account subscribed to its type (docs/webhooks.md): the event and its deliveries commit or
     * vanish together, and an account without endpoints pays no extra round trip for webhooks.
     */
    async insertOutboxEvent(row: Insertable<OutboxEventsTable>, tx: Db = db): Promise<void> {
      await tx
        .with('event', (q) => q.insertInto('outbox_events').values(row).onConflict((oc) => oc.column('unique_ref').doNothing()).returning(['id', 'account_id', 'type', 'created_at']))
        .insertInto('webhook_deliveries')
        .columns(['endpoint_id', 'event_id', 'next_attempt_at', 'created_at'])
        .expression((q) =>
          q
            .selectFrom('event')
            .innerJoin('webhook_endpoints as e', 'e.account_id', 'event.account_id')
            .where('e.enabled', '=', true)
            .where(sql<boolean>`event.type = ANY(e.events)`)
            .select(['e.id', 'event.id', 'event.created_at', 'event.created_at']),
        )
        .execute();
    },

    /**
     * The same two writes (the event once, a pending delivery per subscribed endpoint) as CTEs
     * named `<prefix>event` and `<prefix>deliveries`, for a statement of another repository to
     * carry (lib/statement-rider.ts): the ask's `question.reserved` rides in its reservation.
     */
    outboxEventCtes(row: Insertable<OutboxEventsTable>, prefix: string): RawBuilder<unknown>[] {
      const event = sql.id(`${prefix}event`);
      return [
        sql`${event} AS (
          INSERT INTO outbox_events (id, account_id, type, payload, unique_ref, created_at)
          VALUES (${row.id}, ${row.account_id}, ${row.type}, ${row.payload}, ${row.unique_ref}, ${row.created_at})
          ON CONFLICT (unique_ref) DO NOTHING
          RETURNING id, account_id, type, created_at)`,
        sql`${sql.id(`${prefix}deliveries`)} AS (
          INSERT INTO webhook_deliveries (endpoint_id, event_id, next_attempt_at, created_at)
          SELECT e.id, ev.id, ev.created_at, ev.created_at FROM ${event} ev
          JOIN webhook_endpoints e ON e.account_id = ev.account_id
          WHERE e.enabled = true AND ev.type = ANY(e.events))`,
      ];
    },
  };
}
export type EventsRepository = ReturnType<typeof createEventsRepository>;
