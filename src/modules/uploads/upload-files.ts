import { createHash } from 'node:crypto';
import { concurrencyLimit } from '../../lib/concurrency-limit.ts';
import type { FileStorage } from './file-storage.ts';
import { checkAudio, checkImage, type CheckedFile } from './media-check.ts';
import type { UploadRow } from './uploads.repository.ts';
import { FILE_NAME_PATTERN, type AudioType, type ImageType, type UploadedFile } from './uploads.schemas.ts';

/**
 * Checks (each a sharp decode and re-encode, or a parse of up to 10 MB of audio) running at once:
 * they take libuv worker threads for tens of milliseconds, so uploads queue rather than take
 * every thread and core.
 */
const MAX_CHECKS = 2;
const FILE_NAME = new RegExp(FILE_NAME_PATTERN);

/**
 * What uploads and imports share (docs/uploads.md): the one check every file goes through, the
 * store that gives the bytes their ETag, and the publicUrl of a file (`{PUBLIC_BASE_URL}/v1/files/{id}.{ext}`)
 * both ways.
 */
export function createUploadFiles(deps: { storage: FileStorage; publicBaseUrl: string }) {
  const { storage } = deps;
  const filesPrefix = `${deps.publicBaseUrl.replace(/\/+$/, '')}/v1/files/`;
  const checking = concurrencyLimit(MAX_CHECKS);

  const publicUrlOf = (id: string, ext: string) => `${filesPrefix}${id}.${ext}`;

  /** `upl_….ext` → its id and extension; null for anything else. */
  function parseName(name: string): { id: string; ext: string } | null {
    if (!FILE_NAME.test(name)) return null;
    const [id, ext] = name.split('.');
    return { id, ext };
  }

  return {
    storage,
    publicUrlOf,
    parseName,

    /** The file name of one of our publicUrls, or null when `url` is not one. */
    nameIn(url: string): { id: string; ext: string } | null {
      return url.startsWith(filesPrefix) ? parseName(url.slice(filesPrefix.length)) : null;
    },

    /** media-check.ts's check of `kind`, MAX_CHECKS at a time. `declared` null: an import (any image type). */
    check(kind: 'image' | 'audio', bytes: Buffer, declared: string | null): Promise<CheckedFile> {
      return checking(() => (kind === 'image' ? checkImage(bytes, declared as ImageType | null) : checkAudio(bytes, declared as AudioType)));
    },

    /** Stores checked bytes under the upload's id; the ETag it returns names exactly these bytes. */
    async store(id: string, checked: CheckedFile): Promise<string> {
      await storage.put(id, checked.bytes);
      return `"${createHash('sha256').update(checked.bytes).digest('base64url').slice(0, 32)}"`;
    },

    /** A finished upload as the PUT answers it. */
    view(row: UploadRow): UploadedFile {
      return {
        publicUrl: publicUrlOf(row.id, row.ext),
        kind: row.kind,
        contentType: row.content_type,
        bytes: row.stored_bytes ?? 0,
        width: row.width,
        height: row.height,
        durationMs: row.duration_ms,
      };
    },
  };
}
export type UploadFiles = ReturnType<typeof createUploadFiles>;
