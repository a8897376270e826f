import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { WebhookEndpointsTable } from '../../db/schema.ts';

export type EndpointRow = Selectable<WebhookEndpointsTable>;

/** SQL of webhook endpoints (docs/webhooks.md "Endpoints"). */
export function createWebhookEndpointsRepository(db: Db) {
  return {
    /**
     * Serialises changes to one account's endpoints for the rest of `tx`, so two creations at
     * once cannot both pass the count (a transaction-scoped advisory lock: nothing to clean up).
     */
    async lockAccountEndpoints(accountId: string, tx: Db): Promise<void> {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`webhook endpoints ${accountId}`}))`.execute(tx);
    },

    async count(accountId: string, tx: Db = db): Promise<number> {
      const row = await tx.selectFrom('webhook_endpoints').select(sql<number>`count(*)::int`.as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow();
      return row.n;
    },

    async insert(row: Insertable<WebhookEndpointsTable>, tx: Db = db): Promise<EndpointRow> {
      return tx.insertInto('webhook_endpoints').values(row).returningAll().executeTakeFirstOrThrow();
    },

    async list(accountId: string, tx: Db = db): Promise<EndpointRow[]> {
      return tx.selectFrom('webhook_endpoints').selectAll().where('account_id', '=', accountId).orderBy('created_at').orderBy('id').execute();
    },

    async find(accountId: string, id: string, tx: Db = db): Promise<EndpointRow | undefined> {
      return tx.selectFrom('webhook_endpoints').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    },

    async lock(accountId: string, id: string, tx: Db): Promise<EndpointRow | undefined> {
      return tx.selectFrom('webhook_endpoints').selectAll().where('account_id', '=', accountId).where('id', '=', id).forUpdate().executeTakeFirst();
    },

    async update(id: string, changes: Updateable<WebhookEndpointsTable>, tx: Db = db): Promise<EndpointRow> {
      return tx.updateTable('webhook_endpoints').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
    },

    /** Deletes the endpoint with its deliveries and attempts (the events stay in the outbox). */
    async delete(accountId: string, id: string, tx: Db = db): Promise<boolean> {
      const result = await tx.deleteFrom('webhook_endpoints').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    /**
     * Records how an attempt went on its endpoint, in the attempt's transaction: the last
     * delivery and status, the last success, and since when it has been failing without a break
     * (kept on the first failure after a success, cleared by a success). Returns the row after.
     */
    async recordAttempt(id: string, outcome: { at: Date; status: number | null; ok: boolean }, tx: Db): Promise<EndpointRow | undefined> {
      return tx
        .updateTable('webhook_endpoints')
        .set({
          last_delivery_at: outcome.at,
          last_status: outcome.status,
          ...(outcome.ok ? { last_success_at: outcome.at, failing_since: null } : { failing_since: sql`COALESCE(failing_since, ${outcome.at})` }),
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    },
  };
}
export type WebhookEndpointsRepository = ReturnType<typeof createWebhookEndpointsRepository>;
