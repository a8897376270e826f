import type { Db } from '../../db/database.ts';
import type { Selectable } from 'kysely';
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

    async insertKey(row: Omit<ApiKeyRow, 'last_used_at' | 'revoked_at'>, tx: Db = db): Promise<ApiKeyRow> {
      return tx.insertInto('api_keys').values(row).returningAll().executeTakeFirstOrThrow();
    },

    async findKeyByHash(hash: Buffer, tx: Db = db): Promise<ApiKeyRow | undefined> {
      return tx.selectFrom('api_keys').selectAll().where('secret_hash', '=', hash).executeTakeFirst();
    },

    async findKey(id: string, tx: Db = db): Promise<ApiKeyRow | undefined> {
      return tx.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async listKeys(accountId: string, tx: Db = db): Promise<ApiKeyRow[]> {
      return tx.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).orderBy('created_at', 'desc').orderBy('id').execute();
    },

    /** Revokes once; returns the row as it now stands (revoked_at unchanged if it already was). */
    async revokeKey(id: string, at: Date, tx: Db = db): Promise<ApiKeyRow | undefined> {
      await tx.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
      return this.findKey(id, tx);
    },

    async touchKey(id: string, at: Date, tx: Db = db): Promise<void> {
      await tx.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
    },
  };
}
export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
