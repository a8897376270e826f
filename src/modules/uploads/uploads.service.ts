import type { Clock } from '../../lib/clock.ts';
import { notFound } from '../../lib/errors.ts';
import type { FileStorage } from './file-storage.ts';
import { createUploadFiles } from './upload-files.ts';
import { createUploadImport, type ImportFetch } from './upload-import.ts';
import { createUploadUrls } from './upload-urls.ts';
import type { UploadsRepository } from './uploads.repository.ts';

export type { ImportFetch } from './upload-import.ts';

export interface UploadsDeps {
  repo: UploadsRepository;
  storage: FileStorage;
  clock: Clock;
  publicBaseUrl: string;
  fetch: ImportFetch;
}

/** A served file: the bytes and what the response says about them. */
export interface ServedFile {
  bytes: Buffer;
  contentType: string;
  etag: string;
  name: string;
}

/** Unfinished uploads are swept this long after their URL ended, so a PUT being checked at the end finishes first. */
const SWEEP_GRACE_MS = 60 * 60_000;
const SWEEP_BATCH = 500;

/**
 * Uploads (spec "Drafts and uploads"; docs/uploads.md): upload URLs and their PUT
 * (upload-urls.ts), imports from public https URLs (upload-import.ts), both through the same check
 * and storage (upload-files.ts); and here the files served at their publicUrl, the size of one of
 * our images (for a click test's heatmap), and the sweep of uploads never finished.
 */
export function createUploadsService(deps: UploadsDeps) {
  const { repo, clock } = deps;
  const files = createUploadFiles(deps);
  const { storage } = files;

  return {
    ...createUploadUrls({ repo, files, clock, publicBaseUrl: deps.publicBaseUrl }),
    importImage: createUploadImport({ repo, files, clock, fetch: deps.fetch }),

    /** GET /v1/files/{id}.{ext}: a finished upload's bytes; 404 for anything else. */
    async file(name: string): Promise<ServedFile> {
      const gone = () => notFound('There is no file here (unknown, or its upload has not finished).');
      const parsed = files.parseName(name);
      const row = parsed ? await repo.findReady(parsed.id) : undefined;
      if (!parsed || !row || row.ext !== parsed.ext || !row.etag) throw gone();
      const bytes = await storage.get(parsed.id);
      if (!bytes) throw gone();
      return { bytes, contentType: row.content_type, etag: row.etag, name };
    },

    /**
     * What `url` names when it is one of our publicUrls (any account's: publicUrls are public):
     * the finished upload's kind and, for an image, its size; 'missing' when no finished upload
     * has that address; null for any other URL (no query). The ask refuses a question whose media
     * is 'missing' or of the wrong kind, and stores a click test's image size.
     */
    async ownFile(url: string): Promise<{ accountId: string; kind: 'image' | 'audio'; width: number | null; height: number | null } | 'missing' | null> {
      const parsed = files.nameIn(url);
      if (!parsed) return null;
      const row = await repo.findReady(parsed.id);
      if (!row || row.ext !== parsed.ext) return 'missing';
      return { accountId: row.account_id, kind: row.kind as 'image' | 'audio', width: row.width ?? null, height: row.height ?? null };
    },

    /** The daily sweep: uploads never finished, their URL ended, go with any bytes stored for them. */
    async sweep(): Promise<number> {
      const before = new Date(clock.now().getTime() - SWEEP_GRACE_MS);
      let removed = 0;
      for (;;) {
        const ids = await repo.unfinishedBefore(before, SWEEP_BATCH);
        if (ids.length === 0) return removed;
        const deleted = await repo.deleteUnfinished(ids);
        for (const id of deleted) await storage.delete(id);
        removed += deleted.length;
        if (ids.length < SWEEP_BATCH) return removed;
      }
    },
  };
}
export type UploadsService = ReturnType<typeof createUploadsService>;
