import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { UploadsTable } from '../../db/schema.ts';

export type UploadRow = Selectable<UploadsTable>;

/** What a completed upload stores about the file it serves. */
export interface Completion {
  stored_bytes: number;
  content_type: string;
  ext: string;
  width: number | null;
  height: number | null;
  duration_ms: number | null;
  etag: string;
  completed_at: Date;
}

/** SQL of uploads (docs/uploads.md); the bytes are the file storage's (file-storage.ts). */
export function createUploadsRepository(db: Db) {
  return {
    async insert(row: Insertable<UploadsTable>, tx: Db = db): Promise<UploadRow> {
      return tx.insertInto('uploads').values(row).returningAll().executeTakeFirstOrThrow();
    },

    async findByTokenHash(tokenHash: Buffer, tx: Db = db): Promise<UploadRow | undefined> {
      return tx.selectFrom('uploads').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },

    /**
     * Takes a pending, unexpired upload for one PUT (`receiving`): one conditional UPDATE, so of
     * two PUTs at once only one gets the row. Undefined when it is not pending or has expired.
     */
    async claim(tokenHash: Buffer, now: Date, tx: Db = db): Promise<UploadRow | undefined> {
      return tx
        .updateTable('uploads')
        .set({ status: 'receiving' })
        .where('token_hash', '=', tokenHash)
        .where('status', '=', 'pending')
        .where('expires_at', '>', now)
        .returningAll()
        .executeTakeFirst();
    },

    /** A refused PUT gives the upload back, so a corrected PUT may follow while the URL works. */
    async release(id: string, tx: Db = db): Promise<void> {
      await tx.updateTable('uploads').set({ status: 'pending' }).where('id', '=', id).where('status', '=', 'receiving').execute();
    },

    /** The claimed upload becomes `ready` (served); undefined when the row went meanwhile (swept). */
    async complete(id: string, completion: Completion, tx: Db = db): Promise<UploadRow | undefined> {
      return tx.updateTable('uploads').set({ ...completion, status: 'ready' }).where('id', '=', id).where('status', '=', 'receiving').returningAll().executeTakeFirst();
    },

    /** A served upload by id; undefined when unknown or not finished. */
    async findReady(id: string, tx: Db = db): Promise<UploadRow | undefined> {
      return tx.selectFrom('uploads').selectAll().where('id', '=', id).where('status', '=', 'ready').executeTakeFirst();
    },

    /** Uploads never finished whose URL ended before `before`, oldest first. */
    async unfinishedBefore(before: Date, limit: number, tx: Db = db): Promise<string[]> {
      // Literal, not a parameter: the prepared statement's generic plan can then use uploads_unfinished (WHERE status <> 'ready').
      const rows = await tx.selectFrom('uploads').select('id').where('status', '<>', sql.lit('ready')).where('expires_at', '<', before).orderBy('expires_at').limit(limit).execute();
      return rows.map((r) => r.id);
    },

    /** Deletes those of `ids` still unfinished; returns the ids deleted. */
    async deleteUnfinished(ids: string[], tx: Db = db): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await tx.deleteFrom('uploads').where('id', 'in', ids).where('status', '<>', 'ready').returning('id').execute();
      return rows.map((r) => r.id);
    },
  };
}
export type UploadsRepository = ReturnType<typeof createUploadsRepository>;
