import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { CheckoutsTable } from '../../db/schema.ts';

export type CheckoutRow = Selectable<CheckoutsTable>;

/** SQL of checkouts, the provider events applied to them, and providers' customers. */
export function createCheckoutsRepository(db: Db) {
  return {
    async insert(row: Insertable<CheckoutsTable>, tx: Db = db): Promise<CheckoutRow> {
      return tx.insertInto('checkouts').values(row).returningAll().executeTakeFirstOrThrow();
    },

    async update(id: string, changes: Updateable<CheckoutsTable>, tx: Db = db): Promise<CheckoutRow | undefined> {
      return tx.updateTable('checkouts').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
    },

    /** One checkout of one account (another account's id finds nothing: R5.4). */
    async find(accountId: string, id: string, tx: Db = db): Promise<CheckoutRow | undefined> {
      return tx.selectFrom('checkouts').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    },

    /** A checkout by its id alone: the test provider's page, whose address is the capability. */
    async findAny(id: string, tx: Db = db): Promise<CheckoutRow | undefined> {
      return tx.selectFrom('checkouts').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async recent(accountId: string, limit: number, tx: Db = db): Promise<CheckoutRow[]> {
      return tx.selectFrom('checkouts').selectAll().where('account_id', '=', accountId).orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
    },

    /** The checkout an event names, locked: by our id, else by the provider's object. The first lock of applying an event. */
    async lockByLocator(provider: CheckoutRow['provider'], locator: { checkoutId: string | null; providerRef: string | null }, tx: Db): Promise<CheckoutRow | undefined> {
      let q = tx.selectFrom('checkouts').selectAll().where('provider', '=', provider);
      if (locator.checkoutId) q = q.where('id', '=', locator.checkoutId);
      else if (locator.providerRef) q = q.where('provider_ref', '=', locator.providerRef);
      else return undefined;
      return q.forUpdate().executeTakeFirst();
    },

    async lockByPayment(provider: CheckoutRow['provider'], paymentRef: string, tx: Db): Promise<CheckoutRow | undefined> {
      return tx.selectFrom('checkouts').selectAll().where('provider', '=', provider).where('payment_ref', '=', paymentRef).forUpdate().executeTakeFirst();
    },

    async lock(id: string, tx: Db): Promise<CheckoutRow | undefined> {
      return tx.selectFrom('checkouts').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    },

    /** Checkouts still waiting for money past their time (the expiry job), oldest first, a page after `after`. */
    async overdue(now: Date, limit: number, after: { expiresAt: Date; id: string } | null = null, tx: Db = db): Promise<CheckoutRow[]> {
      // Literals, so the prepared statement's generic plan can use checkouts_awaited (WHERE status IN ('open', 'pending')).
      let q = tx.selectFrom('checkouts').selectAll().where('status', 'in', [sql.lit('open' as const), sql.lit('pending' as const)]).where('expires_at', '<=', now);
      if (after) q = q.where(sql<boolean>`(expires_at, id) > (${after.expiresAt}, ${after.id})`);
      return q.orderBy('expires_at').orderBy('id').limit(limit).execute();
    },

    /** Records a provider event by its id; false when it was recorded before (a replay: apply nothing). */
    async recordEvent(row: { provider: string; eventId: string; type: string; checkoutId: string | null; at: Date }, tx: Db): Promise<boolean> {
      const inserted = await tx
        .insertInto('payment_events')
        .values({ provider: row.provider, event_id: row.eventId, type: row.type, checkout_id: row.checkoutId, received_at: row.at })
        .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
        .returning('event_id')
        .executeTakeFirst();
      return inserted !== undefined;
    },

    async customer(accountId: string, provider: string, tx: Db = db): Promise<string | null> {
      const row = await tx.selectFrom('payment_customers').select('customer_ref').where('account_id', '=', accountId).where('provider', '=', provider).executeTakeFirst();
      return row?.customer_ref ?? null;
    },

    async saveCustomer(accountId: string, provider: string, customerRef: string, tx: Db = db): Promise<void> {
      await tx.insertInto('payment_customers').values({ account_id: accountId, provider, customer_ref: customerRef }).onConflict((oc) => oc.columns(['account_id', 'provider']).doNothing()).execute();
    },
  };
}
export type CheckoutsRepository = ReturnType<typeof createCheckoutsRepository>;
