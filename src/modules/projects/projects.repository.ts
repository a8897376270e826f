import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ProjectsTable } from '../../db/schema.ts';

export type ProjectRow = Selectable<ProjectsTable>;

/** A project with the number of the account's questions in it. */
export interface ProjectWithCount extends ProjectRow {
  question_count: number;
}

export type ProjectChanges = Partial<Pick<ProjectRow, 'name' | 'description' | 'goal' | 'bookmarked' | 'archived'>>;

export function createProjectsRepository(db: Db) {
  /**
   * Projects with their question counts in one query: a LEFT JOIN on the account's questions,
   * grouped by project (p.* may be selected because p.id is the primary key).
   */
  const withCounts = (accountId: string, tx: Db) =>
    tx
      .selectFrom('projects as p')
      .leftJoin('questions as q', (join) => join.onRef('q.project_id', '=', 'p.id').onRef('q.account_id', '=', 'p.account_id'))
      .selectAll('p')
      .select((eb) => eb.fn.count<string>('q.id').as('question_count'))
      .where('p.account_id', '=', accountId)
      .groupBy('p.id');

  const counted = (row: ProjectRow & { question_count: string | number | bigint }): ProjectWithCount => ({ ...row, question_count: Number(row.question_count) });

  return {
    /** Newest first. */
    async list(accountId: string, archived: boolean, tx: Db = db): Promise<ProjectWithCount[]> {
      const rows = await withCounts(accountId, tx).where('p.archived', '=', archived).orderBy('p.created_at', 'desc').orderBy('p.id', 'desc').execute();
      return rows.map(counted);
    },
    async find(accountId: string, id: string, tx: Db = db): Promise<ProjectWithCount | undefined> {
      const row = await withCounts(accountId, tx).where('p.id', '=', id).executeTakeFirst();
      return row && counted(row);
    },
    /** Whether the account has this project: what a question's projectId is checked against (ask, PATCH). */
    async exists(accountId: string, id: string, tx: Db = db): Promise<boolean> {
      const row = await tx.selectFrom('projects').select('id').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
      return row !== undefined;
    },
    async insert(row: ProjectRow, tx: Db = db): Promise<ProjectRow> {
      return tx.insertInto('projects').values(row).returningAll().executeTakeFirstOrThrow();
    },
    async update(accountId: string, id: string, changes: ProjectChanges, at: Date, tx: Db = db): Promise<ProjectRow | undefined> {
      return tx.updateTable('projects').set({ ...changes, updated_at: at }).where('account_id', '=', accountId).where('id', '=', id).returningAll().executeTakeFirst();
    },
    /** The questions' project_id becomes null by the foreign key (ON DELETE SET NULL). */
    async remove(accountId: string, id: string, tx: Db = db): Promise<boolean> {
      const result = await tx.deleteFrom('projects').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}
export type ProjectsRepository = ReturnType<typeof createProjectsRepository>;
