import type { Clock } from '../../lib/clock.ts';
import type { ValidationItem } from '../../lib/errors.ts';
import { validateDraft, type LooseDraft } from '../draft/draft-validator.ts';
import { normalizeDraftText } from '../draft/draft-text.ts';
import { checkContent, contentFields } from '../draft/content-check.ts';
import { DEFAULT_N } from '../draft/draft-defaults.ts';
import type { PoolService } from '../panel/pool.service.ts';
import { priceDraft, pricedAnswers, type AudiencePriceInput, type Price } from '../draft/pricing.ts';
import type { AudienceFields, AudiencesService } from '../audiences/audiences.service.ts';
import { etaMinutes } from '../draft/eta.ts';
import type { QuestionDraft } from '../draft/draft.schemas.ts';
import { earlyStoppingEstimate, type EarlyStoppingEstimate } from './early-stopping-estimate.ts';

export interface Estimate {
  creditsPerAnswer: number;
  creditsTotal: number;
  payPerAnswer: number;
  etaMinutes: number;
  traits: number;
  breakdown: Price['breakdown'];
  breakdownLine: string;
  validation: ValidationItem[];
  poolSize: number | null;
  earlyStopping?: EarlyStoppingEstimate;
}

/** The price input of a draft, with the spec's defaults for what it leaves out; `audience` when it asks one. */
export function priceInputOf(draft: LooseDraft, audience?: AudiencePriceInput) {
  const targeting = draft.targeting ?? {};
  return {
    type: draft.type ?? 'single_choice',
    n: draft.n ?? DEFAULT_N,
    tier: draft.tier ?? 1,
    rush: draft.rush ?? false,
    reason: draft.reason ?? 'off',
    maxTaps: draft.clickTest?.maxTaps,
    countries: targeting.countries ?? [],
    tags: targeting.tags ?? [],
    ageBands: targeting.ageBands,
    genders: targeting.genders,
    verifiedAge: targeting.verifiedAge,
    audience,
  };
}

export function createEstimateService(deps: { pool: PoolService; audiences: Pick<AudiencesService, 'choose'>; clock: Clock }) {
  return {
    /**
     * Prices and validates any draft with the right JSON types. Never spends and never throws for
     * a broken rule: every problem is in `validation` (one item per field). `accountId` (the
     * caller's, when a credential was sent) lets a private audience it sponsors be priced.
     */
    async estimate(given: LooseDraft & AudienceFields, accountId: string | null = null): Promise<Estimate> {
      const { interestAudienceId, minGrade, interestPrice, ...question } = given;
      // Normalized as the ask normalizes it, so both count lengths alike (docs/asking.md "Text").
      const draft = normalizeDraftText(question);
      const validation = validateDraft(draft, { now: deps.clock.now() });
      const { choice, problems } = await deps.audiences.choose({ interestAudienceId, minGrade, interestPrice, targeting: draft.targeting }, accountId);
      validation.push(...problems);
      // The estimate lists everything that would stop the ask, the content check included (the
      // ask refuses it with 422 content_refused), one item per field.
      const refused = checkContent(contentFields(draft));
      if (refused && !validation.some((item) => item.field === refused.field)) {
        validation.push({ field: refused.field, code: 'not_allowed', message: `${refused.reason} An ask with it is refused (422 content_refused, category ${refused.category}).` });
      }
      const input = priceInputOf(draft, choice?.price);
      const price = priceDraft(input);
      // What stopWhen may save, once the draft's own fields are sound (a broken one cannot be read).
      const stopping = validation.some((item) => /^draft\.(type|n|options|stopWhen|neither)\b/.test(item.field)) ? null : earlyStoppingEstimate(draft as QuestionDraft, price.creditsPerAnswer);
      const targetingBroken = problems.length > 0 || validation.some((item) => item.field.startsWith('draft.targeting') || item.field === 'draft.tier');
      const pool = targetingBroken
        ? null
        : await deps.pool.count({ ...input, tier: input.tier, audience: choice?.reach });
      return {
        creditsPerAnswer: price.creditsPerAnswer,
        creditsTotal: price.creditsTotal,
        payPerAnswer: price.payPerAnswer,
        etaMinutes: etaMinutes({ n: pricedAnswers(input.n), poolSize: pool?.size ?? 0, activeHeads: pool?.active ?? 0, rush: input.rush }),
        traits: price.traits,
        breakdown: price.breakdown,
        breakdownLine: price.breakdownLine,
        validation,
        poolSize: pool ? pool.size : null,
        ...(stopping ? { earlyStopping: stopping } : {}),
      };
    },
  };
}
export type EstimateService = ReturnType<typeof createEstimateService>;
