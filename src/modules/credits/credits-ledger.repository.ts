import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { LedgerEntriesTable } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';

export type LedgerEntryRow = Selectable<LedgerEntriesTable>;

export interface NewEntry {
  accountId: string;
  kind: string;
  state: string;
  amount: number;
  title: string;
  ref: string | null;
  uniqueRef: string;
  keyId?: string | null;
  by?: string | null;
  at: Date;
}

/** SQL of the ledger rows: written once each (by unique_ref), read a page at a time, newest first. */
export function createCreditsLedgerRepository(db: Db) {
  return {
    /** Writes an entry once: a second post with the same unique_ref returns null and changes nothing. */
    async insertEntry(entry: NewEntry, tx: Db): Promise<LedgerEntryRow | null> {
      const row = await tx
        .insertInto('ledger_entries')
        .values({
          id: newId('ledger'),
          account_id: entry.accountId,
          kind: entry.kind,
          state: entry.state,
          amount: entry.amount,
          title: entry.title,
          ref: entry.ref,
          unique_ref: entry.uniqueRef,
          key_id: entry.keyId ?? null,
          by: entry.by ?? null,
          at: entry.at,
        })
        .onConflict((oc) => oc.column('unique_ref').doNothing())
        .returningAll()
        .executeTakeFirst();
      return row ?? null;
    },

    /**
     * Settles a pending row (a bank transfer awaited): `available` when the money came, `reversed`
     * when it did not. The only change a ledger row allows (the table's trigger holds it); returns
     * the row when this call settled it, null when it was not pending (already settled, or absent).
     */
    async settlePending(uniqueRef: string, state: 'available' | 'reversed', tx: Db): Promise<LedgerEntryRow | null> {
      const row = await tx.updateTable('ledger_entries').set({ state }).where('unique_ref', '=', uniqueRef).where('state', '=', 'pending').returningAll().executeTakeFirst();
      return row ?? null;
    },

    /**
     * What a checkout's clawbacks have taken, net: its `clawback` rows (at a refund or dispute, and
     * later as held credits came back) less its `restore:` rows (disputes won).
     */
    async clawedBackNet(accountId: string, checkoutId: string, tx: Db): Promise<number> {
      const row = await tx
        .selectFrom('ledger_entries')
        .select(sql<number>`coalesce(-sum(amount), 0)::bigint`.as('net'))
        .where('account_id', '=', accountId)
        .where('ref', '=', checkoutId)
        .where((eb) => eb.or([eb('kind', '=', 'clawback'), eb('unique_ref', 'like', 'restore:%')]))
        .executeTakeFirstOrThrow();
      return Number(row.net);
    },

    async entryByRef(uniqueRef: string, tx: Db): Promise<LedgerEntryRow | undefined> {
      return tx.selectFrom('ledger_entries').selectAll().where('unique_ref', '=', uniqueRef).executeTakeFirst();
    },

    /** Where a row sits in its account's ledger: the position a page cursor names (lib/cursor.ts). */
    async entryPosition(accountId: string, id: string, tx: Db = db): Promise<number | undefined> {
      const row = await tx.selectFrom('ledger_entries').select('seq').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
      return row?.seq;
    },

    async listEntries(accountId: string, beforeSeq: number | null, limit: number, tx: Db = db): Promise<LedgerEntryRow[]> {
      let q = tx.selectFrom('ledger_entries').selectAll().where('account_id', '=', accountId);
      if (beforeSeq !== null) q = q.where('seq', '<', beforeSeq);
      return q.orderBy('seq', 'desc').limit(limit).execute();
    },
  };
}
export type CreditsLedgerRepository = ReturnType<typeof createCreditsLedgerRepository>;
