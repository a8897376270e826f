import type { Db } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';
import { createEventsRepository } from './events.repository.ts';
import type { EventName } from './webhooks.schemas.ts';
import type { StatementRider } from '../../lib/statement-rider.ts';

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

function outboxRow(event: OutboxEvent) {
  const id = newId('event');
  return {
    id,
    account_id: event.accountId,
    type: event.type,
    payload: JSON.stringify({ id, type: event.type, createdAt: event.at.toISOString(), data: event.payload }),
    unique_ref: event.uniqueRef,
    created_at: event.at,
  };
}

/** Writes `event` in `tx`, the caller's transaction: the one that makes the change it reports. */
export async function emitEvent(tx: Db, event: OutboxEvent): Promise<void> {
  await createEventsRepository(tx).insertOutboxEvent(outboxRow(event), tx);
}

/**
 * `event` as a rider (lib/statement-rider.ts) of another write of the same transaction, written
 * in that write's statement; `writeAlone` writes it in a statement of its own when the host did
 * not run (emitEvent's writes exactly, either way).
 */
export function outboxRider(tx: Db, event: OutboxEvent): StatementRider & { writeAlone(): Promise<void> } {
  const row = outboxRow(event);
  const events = createEventsRepository(tx);
  return {
    carried: false,
    ctes: (prefix) => events.outboxEventCtes(row, prefix),
    async writeAlone() {
      await events.insertOutboxEvent(row, tx);
    },
  };
}
