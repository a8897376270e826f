import { notFound, type ValidationItem } from '../../lib/errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { TEMPLATES } from '../draft/templates.data.ts';
import type { DraftsRepository } from '../drafts/drafts.repository.ts';
import { normalizeDraftText } from '../draft/draft-text.ts';
import type { QuestionDraft } from '../draft/draft.schemas.ts';
import type { AskBody, FollowUp } from './ask.schemas.ts';
import type { QuestionsRepository } from './questions.repository.ts';
import type { AudienceFields } from '../audiences/audiences.service.ts';

/** Fields a saved draft may hold that an ask does not take as question fields (docs/drafts.md, the draft-only fields). */
const NOT_ASKED = ['interestAudienceId', 'minGrade', 'interestPrice', 'answeredBy'];

/** A copy of the record without these keys, in the same order. */
function without(record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !keys.includes(key)));
}

export const DEFAULT_OPEN_DAYS = 7;

/** What an ask is about once its base (template, saved draft, original question) is resolved. */
export interface EffectiveDraft {
  draft: QuestionDraft;
  openForDays: number;
  variantGroup: string | null;
  shownAs: string | null;
  /**
   * The interest audience asked (docs/audiences.md): from the saved draft's draft-only fields, or a
   * variant's original; checked and priced by the plan (audiences.service.ts `choose`).
   */
  audience: Pick<AudienceFields, 'interestAudienceId' | 'minGrade' | 'interestPrice'>;
  /** What is wrong with the base itself (an unknown template). */
  problems: ValidationItem[];
}

export interface EffectiveDraftDeps {
  drafts: Pick<DraftsRepository, 'find'>;
  questions: Pick<QuestionsRepository, 'find'>;
}

/** The draft the ask is about: template or saved draft or original question as base, `draft` over it. */
export async function effectiveDraft(deps: EffectiveDraftDeps, actor: Actor, body: AskBody): Promise<EffectiveDraft> {
  const { drafts, questions } = deps;
  let base: Record<string, unknown> = {};
  let openForDays = DEFAULT_OPEN_DAYS;
  let variantGroup: string | null = null;
  let shownAs: string | null = null;
  let audience: EffectiveDraft['audience'] = {};
  const problems: ValidationItem[] = [];
  if (body.templateId !== undefined) {
    const template = TEMPLATES.find((t) => t.id === body.templateId);
    if (!template) problems.push({ field: 'templateId', code: 'unknown_value', message: `No template "${body.templateId}"; see GET /v1/templates.` });
    else base = { ...template.draft };
  }
  if (body.fromDraftId !== undefined) {
    const saved = await drafts.find(actor.accountId, body.fromDraftId);
    if (!saved) throw notFound('No such draft on this account (fromDraftId).');
    const { openForDays: days, shownAs: savedShownAs, ...fields } = without(saved.draft, NOT_ASKED);
    if (typeof savedShownAs === 'string') shownAs = savedShownAs;
    // The saved draft's schema (SavedDraftSchema) checked these fields' types when it was saved.
    const { interestAudienceId, minGrade, interestPrice } = saved.draft as Pick<AudienceFields, 'interestAudienceId' | 'minGrade' | 'interestPrice'>;
    audience = { interestAudienceId, minGrade, interestPrice };
    if (days === 1) openForDays = 1;
    base = { ...base, ...fields };
  }
  if (body.variantOf !== undefined) {
    const original = await questions.find(actor.accountId, body.variantOf);
    if (!original) throw notFound('No such question on this account (variantOf).');
    // A variant is asked now (or at its own scheduledFor), never at the original's time.
    const fields = without(original.draft, ['scheduledFor']);
    base = { ...base, ...fields, n: original.n };
    variantGroup = original.variant_group ?? original.id;
    openForDays = original.open_for_days;
    // A variant asks the original's audience at its grade, at today's price (docs/audiences.md).
    if (original.audience_id) audience = { interestAudienceId: original.audience_id, minGrade: original.min_grade ?? 1 };
  }
  // NFC before anything checks, prices or stores it (docs/asking.md "Text").
  const draft = normalizeDraftText({ ...base, ...body.draft }) as QuestionDraft;
  return { draft, openForDays, variantGroup, shownAs, audience, problems };
}

/** A follow-up (`then[i]`) as a draft of its own: free text, 20 answers, tier 2 unless it says. */
export function followUpDraft(item: FollowUp): QuestionDraft {
  return {
    type: item.type ?? 'free_text',
    text: item.text,
    ...(item.options ? { options: item.options } : {}),
    n: item.n ?? 20,
    tier: (item.tier ?? 2) as 1 | 2 | 3,
    ...(item.reason ? { reason: item.reason } : {}),
  };
}
