import type { Db } from '../../db/database.ts';
import type { Insertable, Selectable } from 'kysely';
import type { AccountsTable, ApiKeysTable } from '../../db/schema.ts';

export type AccountRow = Selectable<AccountsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;

export function createAccountsRepository(db: Db) {
  return {
    async insertAccount(row: Omit<AccountRow, 'created_at'> & { created_at: Date }, tx: Db = db): Promise<AccountRow> {
      return tx.insertInto('accounts').values(row).returningAll().executeTakeFirstOrThrow();
    },

    async findAccount(id: string, tx: Db = db): Promise<AccountRow | undefined> {
      return tx.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Inserts a key; a second key from the same portal form (same account and form_nonce) inserts nothing and returns nothing. */
    async insertKey(row: Insertable<ApiKeysTable>, tx: Db = db): Promise<ApiKeyRow | undefined> {
      return tx
        .insertInto('api_keys')
        .values(row)
        .onConflict((oc) => oc.columns(['account_id', 'form_nonce']).where('form_nonce', 'is not', null).doNothing())
        .returningAll()
        .executeTakeFirst();
    },

    async findKeyByHash(hash: Buffer, tx: Db = db): Promise<ApiKeyRow | undefined> {
      return tx.selectFrom('api_keys').selectAll().where('secret_hash', '=', hash).executeTakeFirst();
    },

    async findKey(id: string, tx: Db = db): Promise<ApiKeyRow | undefined> {
      return tx.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async listKeys(accountId: string, tx: Db = db): Promise<ApiKeyRow[]> {
      // Keys only: an agent's connection (kind 'oauth') is listed under Connected apps (docs/agents.md).
      return tx.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).where('kind', '=', 'key').orderBy('created_at', 'desc').orderBy('id').execute();
    },

    /** Revokes once; returns the row as it now stands (revoked_at unchanged if it already was). With `accountId`, only a key of that account. */
    async revokeKey(id: string, at: Date, accountId?: string, tx: Db = db): Promise<ApiKeyRow | undefined> {
      let q = tx.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('kind', '=', 'key').where('revoked_at', 'is', null);
      if (accountId !== undefined) q = q.where('account_id', '=', accountId);
      await q.execute();
      const row = await this.findKey(id, tx);
      return row && row.kind === 'key' && (accountId === undefined || row.account_id === accountId) ? row : undefined;
    },

    async touchKey(id: string, at: Date, tx: Db = db): Promise<void> {
      await tx.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
    },
  };
}
export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
