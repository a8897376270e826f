import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DraftsTable } from '../../db/schema.ts';

export type DraftRow = Selectable<DraftsTable>;

export function createDraftsRepository(db: Db) {
  return {
    async list(accountId: string, limit: number): Promise<DraftRow[]> {
      return db.selectFrom('drafts').selectAll().where('account_id', '=', accountId).orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },
    async count(accountId: string): Promise<number> {
      const row = await db.selectFrom('drafts').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async find(accountId: string, id: string): Promise<DraftRow | undefined> {
      return db.selectFrom('drafts').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    },
    async insert(row: DraftRow): Promise<DraftRow> {
      return db.insertInto('drafts').values({ ...row, draft: JSON.stringify(row.draft) }).returningAll().executeTakeFirstOrThrow();
    },
    async update(accountId: string, id: string, draft: Record<string, unknown>, at: Date): Promise<DraftRow | undefined> {
      return db.updateTable('drafts').set({ draft: JSON.stringify(draft), updated_at: at }).where('account_id', '=', accountId).where('id', '=', id).returningAll().executeTakeFirst();
    },
    async remove(accountId: string, id: string): Promise<boolean> {
      const result = await db.deleteFrom('drafts').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}
export type DraftsRepository = ReturnType<typeof createDraftsRepository>;
