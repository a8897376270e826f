import { createHash } from 'node:crypto';
import type { Actor } from '../../lib/actor.ts';
import { randomBase62 } from '../../lib/base62.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, notFound, validationError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { MediaRefused, type CheckedFile } from './media-check.ts';
import type { UploadFiles } from './upload-files.ts';
import type { UploadRow, UploadsRepository } from './uploads.repository.ts';
import { AUDIO_TYPES, EXT_OF, IMAGE_TYPES, UPLOAD_LIMITS, UPLOAD_TOKEN_PATTERN, type CreateUploadInput, type UploadedFile, type UploadTicket } from './uploads.schemas.ts';

const TOKEN = new RegExp(UPLOAD_TOKEN_PATTERN);
const hashToken = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/** The media type of a Content-Type header, without parameters, lower case ('' when absent). */
function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}

/** The PUT's Content-Type must be the declared one, and its size (when known) the declared size. */
function checkHeaders(row: UploadRow, contentType: string | undefined, size: number | null): void {
  const sent = mediaTypeOf(contentType);
  if (sent !== row.content_type) {
    throw new AppError('unsupported_media_type', `Send the file with "Content-Type: ${row.content_type}", the type declared for this upload${sent ? ` (got ${sent})` : ''}.`, { expected: row.content_type });
  }
  if (size === null) return;
  if (size > row.declared_bytes) {
    throw new AppError('payload_too_large', `The body is ${size} bytes; this upload was declared as ${row.declared_bytes}. Nothing was stored.`, { declared: row.declared_bytes, received: size });
  }
  if (size < row.declared_bytes) {
    throw validationError([{ field: 'body', code: 'too_short', message: `The body is ${size} bytes; this upload was declared as ${row.declared_bytes}. Nothing was stored.` }]);
  }
}

/**
 * Upload URLs (spec "Drafts and uploads"; docs/uploads.md): made for one declared file, good for
 * 15 minutes and one successful PUT. The URL's token is the credential; only its SHA-256 is kept.
 */
export function createUploadUrls(deps: { repo: UploadsRepository; files: UploadFiles; clock: Clock; publicBaseUrl: string }) {
  const { repo, files, clock } = deps;
  const base = deps.publicBaseUrl.replace(/\/+$/, '');

  /** Why a PUT to this row cannot be taken now (it is not pending, or its URL ended). */
  function notTakable(row: UploadRow | undefined, now: Date): AppError {
    if (!row) return notFound('There is no upload at this URL; ask for one with POST /v1/uploads.');
    if (row.status === 'ready') return new AppError('conflict', 'This upload is complete: its file is served at its publicUrl. Ask for a new upload URL to send another file.', { publicUrl: files.publicUrlOf(row.id, row.ext) });
    if (row.expires_at <= now) return notFound(`This upload URL has expired (they work for ${UPLOAD_LIMITS.urlMinutes} minutes); ask for a new one with POST /v1/uploads.`);
    return new AppError('conflict', 'Another PUT to this upload URL is being checked; wait for its answer.');
  }

  /** The pending, unexpired upload of a token; else what to answer. */
  async function takable(token: string, now: Date): Promise<UploadRow> {
    const row = TOKEN.test(token) ? await repo.findByTokenHash(hashToken(token)) : undefined;
    if (!row || row.status !== 'pending' || row.expires_at <= now) throw notTakable(row, now);
    return row;
  }

  return {
    /** POST /v1/uploads: an upload URL for one file of the declared kind, type and size. */
    async create(actor: Actor, input: CreateUploadInput): Promise<UploadTicket> {
      const types = input.kind === 'image' ? IMAGE_TYPES : AUDIO_TYPES;
      if (!(input.contentType in types)) {
        throw validationError([{ field: 'contentType', code: 'not_allowed', message: `An ${input.kind} upload's contentType must be one of ${Object.keys(types).join(', ')}.` }]);
      }
      const limit = input.kind === 'image' ? UPLOAD_LIMITS.imageBytes : UPLOAD_LIMITS.audioBytes;
      if (input.bytes > limit) {
        throw validationError([{ field: 'bytes', code: 'out_of_range', message: `An ${input.kind} may be at most ${limit} bytes (${limit / (1024 * 1024)} MB).` }]);
      }
      const now = clock.now();
      const id = newId('upload');
      const token = `upt_${randomBase62(43)}`;
      const ext = EXT_OF[input.contentType];
      const expiresAt = new Date(now.getTime() + UPLOAD_LIMITS.urlMinutes * 60_000);
      await repo.insert({
        id, account_id: actor.accountId, kind: input.kind, source: 'upload', status: 'pending', content_type: input.contentType, ext,
        declared_bytes: input.bytes, token_hash: hashToken(token), created_at: now, expires_at: expiresAt,
      });
      return { uploadUrl: `${base}/v1/uploads/${token}`, publicUrl: files.publicUrlOf(id, ext), headers: { 'Content-Type': input.contentType }, expiresAt: expiresAt.toISOString() };
    },

    /**
     * What a PUT's headers can be refused for, before its body is read (so a body to a URL that
     * does not work, of the wrong type or announced too long, is never taken in): the same
     * answers `receive` gives. `contentLength` is the header as sent (absent when chunked).
     */
    async precheck(token: string, contentType: string | undefined, contentLength: string | undefined): Promise<void> {
      const row = await takable(token, clock.now());
      checkHeaders(row, contentType, contentLength === undefined || !/^\d+$/.test(contentLength) ? null : Number(contentLength));
    },

    /**
     * The PUT to an upload URL: the Content-Type and size must be those declared; the bytes are
     * checked, then stored and served. Nothing is stored unless every check passes; a refused
     * PUT leaves the URL usable for a corrected one until it expires.
     */
    async receive(token: string, request: { contentType: string | undefined; body: Buffer }): Promise<UploadedFile> {
      const now = clock.now();
      checkHeaders(await takable(token, now), request.contentType, request.body.length);
      // One PUT at a time: of two at once, one claims the upload and the other is told so.
      const claimed = await repo.claim(hashToken(token), now);
      if (!claimed) throw notTakable(await repo.findByTokenHash(hashToken(token)), now);
      let checked: CheckedFile;
      let etag: string;
      try {
        checked = await files.check(claimed.kind, request.body, claimed.content_type);
        etag = await files.store(claimed.id, checked);
      } catch (error) {
        await repo.release(claimed.id);
        if (error instanceof MediaRefused) throw new AppError('upload_refused', `${error.message} Nothing was stored.`, { reason: error.reason }, undefined, { cause: error });
        throw error;
      }
      const done = await repo.complete(claimed.id, {
        stored_bytes: checked.bytes.length, content_type: checked.contentType, ext: checked.ext,
        width: checked.width, height: checked.height, duration_ms: checked.durationMs, etag, completed_at: clock.now(),
      });
      if (!done) {
        // Swept while it was being checked (its URL ended long ago): nothing may stay behind.
        await files.storage.delete(claimed.id);
        throw notTakable(undefined, now);
      }
      return files.view(done);
    },
  };
}
