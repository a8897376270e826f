import type { Db } from '../../db/database.ts';
import { randomBase62 } from '../../lib/base62.ts';
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

export async function emitEvent(tx: Db, event: OutboxEvent): Promise<void> {
  const id = `evt_${randomBase62(20)}`;
  await tx
    .insertInto('outbox_events')
    .values({
      id,
      account_id: event.accountId,
      type: event.type,
      payload: JSON.stringify({ id, type: event.type, createdAt: event.at.toISOString(), data: event.payload }),
      unique_ref: event.uniqueRef,
      created_at: event.at,
    })
    .onConflict((oc) => oc.column('unique_ref').doNothing())
    .execute();
}
