import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { FileStorage } from './file-storage.ts';

/**
 * The `postgres` file storage (docs/uploads.md "Storage"): each file one bytea row of
 * `upload_blobs`, so every node of a deployment serves every file with nothing else to run.
 * PostgreSQL keeps values this size out of line (TOAST); images and audio are compressed already,
 * so the column is `STORAGE EXTERNAL` (migration 0018): stored without trying to compress again.
 */
export function createPostgresStorage(db: Db): FileStorage {
  return {
    name: 'postgres',
    async put(key, bytes) {
      await db.insertInto('upload_blobs').values({ key, bytes }).onConflict((c) => c.column('key').doUpdateSet({ bytes })).execute();
    },
    async get(key) {
      const row = await db.selectFrom('upload_blobs').select('bytes').where('key', '=', key).executeTakeFirst();
      return row ? row.bytes : null;
    },
    async delete(key) {
      await db.deleteFrom('upload_blobs').where('key', '=', key).execute();
    },
    async exists(key) {
      const row = await db.selectFrom('upload_blobs').select(sql<number>`1`.as('one')).where('key', '=', key).executeTakeFirst();
      return row !== undefined;
    },
  };
}
