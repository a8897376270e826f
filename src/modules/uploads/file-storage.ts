import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { renameSynced } from '../../lib/fsync.ts';

/**
 * Where uploaded files' bytes live (docs/uploads.md "Storage"): one small interface, a driver per
 * place. Keys are upload ids (`upl_…`); a stored file never changes (a key is written once, when
 * its upload completes, and deleted by the sweep or never). UPLOAD_STORAGE picks the driver:
 * `postgres` (upload-blobs.repository.ts: a bytea table every node shares) or `filesystem`
 * (below). An S3-compatible driver would implement the same four methods.
 */
export interface FileStorage {
  readonly name: 'postgres' | 'filesystem';
  put(key: string, bytes: Buffer): Promise<void>;
  /** The bytes, or null when nothing is stored under the key. */
  get(key: string): Promise<Buffer | null>;
  /** Deleting a key that holds nothing is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

/** Keys are ids we made; anything else (a slash, dots) never becomes a path. */
const KEY = /^[A-Za-z0-9_]{1,64}$/;

function checkedKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`Not a storage key: ${JSON.stringify(key)}`);
  return key;
}

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Files under `dir` (DATA_DIR/uploads), spread over 256 folders by two characters of the key.
 * A file is written under a temporary name and renamed into place, so a reader never sees half
 * of one, and a crash mid-write leaves only a `.tmp-` file (never served); a stored file is on
 * disk before `put` returns, power cut included.
 */
export function createFilesystemStorage(dir: string): FileStorage {
  const fileOf = (key: string) => path.join(dir, checkedKey(key).slice(-2), key);
  return {
    name: 'filesystem',
    async put(key, bytes) {
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.tmp-${randomBytes(6).toString('hex')}`;
      try {
        await fs.writeFile(temporary, bytes, { flag: 'wx' });
        // Synced, renamed, and the rename synced: the row naming the file commits after this,
        // durably, so the file must be on disk first (lib/fsync.ts).
        await renameSynced(temporary, file);
      } catch (error) {
        await fs.rm(temporary, { force: true });
        throw error;
      }
    },
    async get(key) {
      try {
        return await fs.readFile(fileOf(key));
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      await fs.rm(fileOf(key), { force: true });
    },
    async exists(key) {
      try {
        await fs.access(fileOf(key));
        return true;
      } catch (error) {
        if (missing(error)) return false;
        throw error;
      }
    },
  };
}
