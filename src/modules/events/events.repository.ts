import { sql, type Insertable } from 'kysely';
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
  };
}
export type EventsRepository = ReturnType<typeof createEventsRepository>;
