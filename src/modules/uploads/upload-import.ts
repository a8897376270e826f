import type { Actor } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { OutboundError, type OutboundOptions, type OutboundResponse } from '../../lib/outbound-http.ts';
import { MediaRefused, type CheckedFile } from './media-check.ts';
import type { UploadFiles } from './upload-files.ts';
import type { UploadsRepository } from './uploads.repository.ts';
import { IMAGE_TYPES, UPLOAD_LIMITS, type ImportedImage } from './uploads.schemas.ts';

/** The import's fetch: lib/outbound-http.ts's outboundRequest with this deployment's address rules. */
export type ImportFetch = (url: string, options: Pick<OutboundOptions, 'headers' | 'maxBodyBytes' | 'redirects' | 'timeoutMs'>) => Promise<OutboundResponse>;

const failed = (reason: string, message: string, details: Record<string, unknown> = {}, cause?: unknown) =>
  new AppError('import_failed', `${message} Nothing was stored.`, { reason, ...details }, undefined, { cause });

/**
 * POST /v1/uploads/import (spec "Drafts and uploads", "Limits": import; docs/uploads.md): fetches
 * an image from a public https URL through lib/outbound-http.ts (every address checked, the
 * connection pinned, at most 3 redirects each checked again, 5 MB read at most, 10 s in all),
 * then checks and stores it exactly as an upload (upload-files.ts). Every failure is 422
 * `import_failed` with `details.reason`.
 */
export function createUploadImport(deps: { repo: UploadsRepository; files: UploadFiles; clock: Clock; fetch: ImportFetch }) {
  const { repo, files, clock } = deps;

  async function fetchImage(url: string): Promise<OutboundResponse> {
    try {
      return await deps.fetch(url, {
        redirects: 3,
        maxBodyBytes: UPLOAD_LIMITS.importBytes,
        timeoutMs: UPLOAD_LIMITS.importTimeoutMs,
        headers: { accept: Object.keys(IMAGE_TYPES).join(', '), 'user-agent': 'Headcount-Import/2.0' },
      });
    } catch (error) {
      if (error instanceof OutboundError) throw failed(error.code, error.message, {}, error);
      throw error;
    }
  }

  return async function importImage(actor: Actor, url: string): Promise<ImportedImage> {
    const response = await fetchImage(url);
    const host = new URL(response.url).host;
    if (response.status < 200 || response.status > 299) throw failed('http_status', `${host} answered HTTP ${response.status}, not the image.`, { status: response.status });
    if (response.truncated) throw failed('too_large', `The file at that URL is larger than ${UPLOAD_LIMITS.importBytes / (1024 * 1024)} MB.`);
    if (response.body.length === 0) throw failed('empty', `${host} answered with an empty body.`);
    let checked: CheckedFile;
    try {
      checked = await files.check('image', response.body, null);
    } catch (error) {
      if (error instanceof MediaRefused) throw failed(error.reason, error.message, {}, error);
      throw error;
    }
    const id = newId('upload');
    const etag = await files.store(id, checked);
    const now = clock.now();
    await repo.insert({
      id, account_id: actor.accountId, kind: 'image', source: 'import', status: 'ready', content_type: checked.contentType, ext: checked.ext,
      declared_bytes: response.body.length, token_hash: null, source_url: url, stored_bytes: checked.bytes.length,
      width: checked.width, height: checked.height, duration_ms: null, etag, created_at: now, expires_at: now, completed_at: now,
    });
    return { publicUrl: files.publicUrlOf(id, checked.ext), width: checked.width, height: checked.height };
  };
}
