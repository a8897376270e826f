import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { QuestionsTable, ShareLinksTable } from '../../db/schema.ts';

export type ShareLinkRow = Selectable<ShareLinksTable>;

/** SQL of the public results page and the share links (docs/sharing.md); the rules are in sharing.service.ts. */
export function createSharingRepository(db: Db) {
  return {
    /** The question behind a public results code (whether its page is on is the service's to check). */
    async findQuestionByPublicCode(code: string, tx: Db = db): Promise<Selectable<QuestionsTable> | undefined> {
      return tx.selectFrom('questions').selectAll().where('public_code', '=', code).executeTakeFirst();
    },

    /**
     * Turns the public page on (with a new code) or off (no code). The flag lives in the stored
     * draft, where asking put it; only that key of the draft changes.
     */
    async setPublicPage(id: string, change: { on: boolean; publicCode: string | null; at: Date }, tx: Db = db): Promise<void> {
      await tx
        .updateTable('questions')
        .set({
          // The draft column's update type (db/schema.ts); jsonb_set returns the draft with the key set.
          draft: sql<string>`jsonb_set(draft, '{publicResults}', ${change.on ? 'true' : 'false'}::jsonb)`,
          public_code: change.publicCode,
          updated_at: change.at,
        })
        .where('id', '=', id)
        .execute();
    },

    /** A share link by the SHA-256 of its token (only the hash is stored). */
    async findLinkByTokenHash(tokenHash: Buffer, tx: Db = db): Promise<ShareLinkRow | undefined> {
      return tx.selectFrom('share_links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },

    /** Links of a question that work at `now`: not revoked, not expired. */
    async countActiveLinks(questionId: string, now: Date, tx: Db = db): Promise<number> {
      const row = await tx
        .selectFrom('share_links')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('question_id', '=', questionId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async insertLink(row: Insertable<ShareLinksTable>, tx: Db = db): Promise<ShareLinkRow> {
      return tx.insertInto('share_links').values(row).returningAll().executeTakeFirstOrThrow();
    },

    /** A question's links, newest first, revoked and expired ones too. */
    async listLinks(accountId: string, questionId: string, tx: Db = db): Promise<ShareLinkRow[]> {
      return tx.selectFrom('share_links').selectAll().where('question_id', '=', questionId).where('account_id', '=', accountId).orderBy('seq', 'desc').execute();
    },

    /** One link of one question of one account: whether it exists and whether it is revoked. */
    async findLink(accountId: string, questionId: string, linkId: string, tx: Db = db): Promise<Pick<ShareLinkRow, 'id' | 'revoked_at'> | undefined> {
      return tx
        .selectFrom('share_links')
        .select(['id', 'revoked_at'])
        .where('id', '=', linkId)
        .where('question_id', '=', questionId)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
    },

    /** Revokes a link not yet revoked (a revoked one keeps its first revocation time). */
    async revokeLink(linkId: string, at: Date, tx: Db = db): Promise<void> {
      await tx.updateTable('share_links').set({ revoked_at: at }).where('id', '=', linkId).where('revoked_at', 'is', null).execute();
    },
  };
}
export type SharingRepository = ReturnType<typeof createSharingRepository>;
