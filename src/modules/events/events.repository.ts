import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { OutboxEventsTable } from '../../db/schema.ts';

/** SQL of the transactional outbox (outbox.ts says what goes in it and when). */
export function createEventsRepository(db: Db) {
  return {
    /** Writes an event once: another with the same unique_ref (a replayed transition) adds nothing. */
    async insertOutboxEvent(row: Insertable<OutboxEventsTable>, tx: Db = db): Promise<void> {
      await tx.insertInto('outbox_events').values(row).onConflict((oc) => oc.column('unique_ref').doNothing()).execute();
    },
  };
}
export type EventsRepository = ReturnType<typeof createEventsRepository>;
