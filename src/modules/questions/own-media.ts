import { validationError, type ValidationItem } from '../../lib/errors.ts';
import type { QuestionDraft } from '../draft/draft.schemas.ts';

/**
 * What a URL names when it is one of this service's upload publicUrls (uploads.service.ts
 * ownFile): the finished upload's account, kind and image size, 'missing' when no finished
 * upload has that address, null for any other URL (looked up without a query).
 */
export type OwnFileLookup = (url: string) => Promise<{ accountId: string; kind: 'image' | 'audio'; width: number | null; height: number | null } | 'missing' | null>;

/** Every media address of a draft, with the field it is in and what it must hold. */
function mediaOf(draft: QuestionDraft, prefix: string): Array<{ field: string; url: string; kind: 'image' | 'audio' }> {
  const found: Array<{ field: string; url: string; kind: 'image' | 'audio' }> = [];
  (draft.options ?? []).forEach((option, i) => {
    if (option.imageUrl) found.push({ field: `${prefix}.options[${i}].imageUrl`, url: option.imageUrl, kind: 'image' });
  });
  if (draft.stimulus?.imageUrl) found.push({ field: `${prefix}.stimulus.imageUrl`, url: draft.stimulus.imageUrl, kind: 'image' });
  if (draft.stimulus?.audioUrl) found.push({ field: `${prefix}.stimulus.audioUrl`, url: draft.stimulus.audioUrl, kind: 'audio' });
  return found;
}

/**
 * Before an ask takes credits: media that points at our own files must name a finished upload of
 * the asking account, of the right kind (a publicUrl whose PUT never happened would leave heads a
 * broken image and the requester a bill; another account's upload is that account's to show, and
 * would break if that account's data were deleted). Other addresses are the requester's to host.
 * Returns the size of the main click test's image when it is ours, which the question stores for
 * its heatmap's aspect.
 */
export async function checkOwnMedia(
  lookup: OwnFileLookup | undefined,
  accountId: string,
  main: QuestionDraft,
  followUps: readonly QuestionDraft[],
): Promise<{ width: number; height: number } | null> {
  if (!lookup) return null;
  const problems: ValidationItem[] = [];
  let stimulusSize: { width: number; height: number } | null = null;
  const drafts = [{ draft: main, prefix: 'draft' }, ...followUps.map((draft, i) => ({ draft, prefix: `then[${i}]` }))];
  for (const { draft, prefix } of drafts) {
    for (const media of mediaOf(draft, prefix)) {
      const file = await lookup(media.url);
      if (file === null) continue;
      if (file === 'missing') {
        problems.push({ field: media.field, code: 'not_allowed', message: `${media.field} names no finished upload: PUT the file to its uploadUrl first (docs/uploads.md).` });
      } else if (file.accountId !== accountId) {
        problems.push({ field: media.field, code: 'not_allowed', message: `${media.field} names another account's upload: upload or import the file with this account's credentials.` });
      } else if (file.kind !== media.kind) {
        problems.push({ field: media.field, code: 'not_allowed', message: `${media.field} names an ${file.kind} upload; it needs an ${media.kind}.` });
      } else if (draft === main && draft.type === 'click_test' && media.field === 'draft.stimulus.imageUrl' && file.width && file.height) {
        stimulusSize = { width: file.width, height: file.height };
      }
    }
  }
  if (problems.length) throw validationError(problems);
  return stimulusSize;
}
