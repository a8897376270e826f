import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { SupportDroppedPostsTable, SupportMessagesTable, SupportTicketsTable } from '../../db/schema.ts';
import type { TicketStatus } from './support.schemas.ts';

export type TicketRow = Selectable<SupportTicketsTable>;
export type MessageRow = Selectable<SupportMessagesTable>;
/** Why a post was dropped as spam (docs/support.md "Spam"). */
export type DropReason = Selectable<SupportDroppedPostsTable>['reason'];

/** A ticket with the numbers a list shows. */
export interface CountedTicketRow extends TicketRow {
  message_count: number;
  reply_count: number;
  last_message_at: Date;
}

/** SQL of support tickets, their messages and the record of dropped posts (migration 0014). */
export function createSupportRepository(db: Db) {
  /** Tickets with their message counts in one query (t.* may be selected: t.id is the primary key). */
  const counted = (tx: Db) =>
    tx
      .selectFrom('support_tickets as t')
      .innerJoin('support_messages as m', 'm.ticket_id', 't.id')
      .selectAll('t')
      .select([
        sql<number>`count(*)::int`.as('message_count'),
        sql<number>`(count(*) FILTER (WHERE m.author = 'support'))::int`.as('reply_count'),
        sql<Date>`max(m.created_at)`.as('last_message_at'),
      ])
      .groupBy('t.id');

  return {
    /**
     * Holds the sender's lock until the transaction ends, so two posts from one sender are counted
     * one after the other and the hourly limit is exact even across processes.
     */
    async lockSender(sender: string, tx: Db): Promise<void> {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`support:${sender}`}))`.execute(tx);
    },

    /** How many posts (tickets and dropped ones) the sender made after `since`, and when the oldest of them was. */
    async countSince(sender: string, since: Date, tx: Db = db): Promise<{ count: number; oldest: Date | null }> {
      const posts = tx
        .selectFrom('support_tickets')
        .select('created_at')
        .where('sender', '=', sender)
        .where('created_at', '>', since)
        .unionAll(tx.selectFrom('support_dropped_posts').select('created_at').where('sender', '=', sender).where('created_at', '>', since));
      return tx
        .selectFrom(posts.as('p'))
        .select([sql<number>`count(*)::int`.as('count'), sql<Date | null>`min(p.created_at)`.as('oldest')])
        .executeTakeFirstOrThrow();
    },

    async insertTicket(row: Insertable<SupportTicketsTable>, tx: Db = db): Promise<TicketRow> {
      return tx.insertInto('support_tickets').values(row).returningAll().executeTakeFirstOrThrow();
    },

    async insertMessage(row: Insertable<SupportMessagesTable>, tx: Db = db): Promise<MessageRow> {
      return tx.insertInto('support_messages').values(row).returningAll().executeTakeFirstOrThrow();
    },

    /** Records a dropped post and deletes the ones the hourly limit no longer needs (older than `keepSince`). */
    async recordDropped(row: Insertable<SupportDroppedPostsTable>, keepSince: Date, tx: Db = db): Promise<void> {
      await tx.deleteFrom('support_dropped_posts').where('created_at', '<=', keepSince).execute();
      await tx.insertInto('support_dropped_posts').values(row).execute();
    },

    async markMailed(seq: number, at: Date, tx: Db = db): Promise<void> {
      await tx.updateTable('support_messages').set({ mailed_at: at }).where('seq', '=', seq).execute();
    },

    async setStatus(id: string, status: TicketStatus, at: Date, tx: Db = db): Promise<void> {
      await tx.updateTable('support_tickets').set({ status, updated_at: at }).where('id', '=', id).execute();
    },

    /** The ticket, locked for the rest of the transaction (a reply), or undefined. */
    async lock(id: string, tx: Db): Promise<TicketRow | undefined> {
      return tx.selectFrom('support_tickets').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    },

    async find(id: string, tx: Db = db): Promise<CountedTicketRow | undefined> {
      return counted(tx).where('t.id', '=', id).executeTakeFirst();
    },

    /** Oldest first. */
    async messages(ticketId: string, tx: Db = db): Promise<MessageRow[]> {
      return tx.selectFrom('support_messages').selectAll().where('ticket_id', '=', ticketId).orderBy('seq').execute();
    },

    /** The messages of several tickets, oldest first (the queue shows each ticket whole). */
    async messagesOf(ticketIds: string[], tx: Db = db): Promise<MessageRow[]> {
      if (ticketIds.length === 0) return [];
      return tx.selectFrom('support_messages').selectAll().where('ticket_id', 'in', ticketIds).orderBy('seq').execute();
    },

    /** A person's tickets: opened by them, or sent from their address (anonymously or by a key). Newest first. */
    async listForPerson(personId: string, email: string, tx: Db = db): Promise<CountedTicketRow[]> {
      return counted(tx)
        .where((eb) => eb.or([eb('t.person_id', '=', personId), eb('t.email', '=', email)]))
        .orderBy('t.created_at', 'desc')
        .orderBy('t.id', 'desc')
        .execute();
    },

    /** The support queue, newest first. Dropped posts are in another table, so never here. */
    async list(options: { status?: TicketStatus; limit: number }, tx: Db = db): Promise<CountedTicketRow[]> {
      let query = counted(tx);
      if (options.status) query = query.where('t.status', '=', options.status);
      return query.orderBy('t.created_at', 'desc').orderBy('t.id', 'desc').limit(options.limit).execute();
    },

    /** Where a session's replies go, and the language the person chose. */
    async person(id: string, tx: Db = db): Promise<{ email: string; language: string } | undefined> {
      return tx.selectFrom('people').select(['email', 'language']).where('id', '=', id).executeTakeFirst();
    },

    /** Where a key's replies go (null for accounts made by the admin CLI), and the account's language. */
    async account(id: string, tx: Db = db): Promise<{ email: string | null; language: string } | undefined> {
      return tx.selectFrom('accounts').select(['email', 'language']).where('id', '=', id).executeTakeFirst();
    },
  };
}
export type SupportRepository = ReturnType<typeof createSupportRepository>;
