import type { Db } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';
import { createEventsRepository } from './events.repository.ts';
import type { EventName } from './webhooks.schemas.ts';

/**
 * The transactional outbox (RELIABILITY R2.2): an event is written in the same transaction as the
 * state change it reports, so it exists exactly when the change does. Webhook delivery reads it
 * later. `uniqueRef` makes a replayed transition emit nothing new.
 */
export interface OutboxEvent {
  accountId: string;
  type: EventName;
  uniqueRef: string;
  payload: Record<string, unknown>;
  at: Date;
}

/** Writes `event` in `tx`, the caller's transaction: the one that makes the change it reports. */
export async function emitEvent(tx: Db, event: OutboxEvent): Promise<void> {
  const id = newId('event');
  await createEventsRepository(tx).insertOutboxEvent(
    {
      id,
      account_id: event.accountId,
      type: event.type,
      payload: JSON.stringify({ id, type: event.type, createdAt: event.at.toISOString(), data: event.payload }),
      unique_ref: event.uniqueRef,
      created_at: event.at,
    },
    tx,
  );
}
