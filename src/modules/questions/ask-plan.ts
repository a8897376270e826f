import { AppError, notFound, validationError } from '../../lib/errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { priceDraft, type Price } from '../draft/pricing.ts';
import { priceInputOf } from '../estimate/estimate.service.ts';
import { etaMinutes } from '../draft/eta.ts';
import type { PoolService } from '../panel/pool.service.ts';
import type { ProjectsRepository } from '../projects/projects.repository.ts';
import { validateDraft, type LooseDraft } from '../draft/draft-validator.ts';
import { normalizeDraft, type NormalizedDraft } from '../draft/draft-defaults.ts';
import { normalizeDraftText } from '../draft/draft-text.ts';
import type { QuestionDraft } from '../draft/draft.schemas.ts';
import type { AskBody } from './ask.schemas.ts';
import { checkContent, contentFields } from '../draft/content-check.ts';
import { effectiveDraft, followUpDraft, type EffectiveDraftDeps } from './effective-draft.ts';
import type { AudiencesService } from '../audiences/audiences.service.ts';
import type { AudienceReach } from '../panel/targeting.ts';

/**
 * Everything an ask decides before its transaction (docs/asking.md): what is asked (the effective
 * draft and its follow-ups), that it is valid and allowed (validation, content check, project),
 * and what it costs and how long it should take (prices, pool, ETA). Nothing is written here.
 */
export interface AskPlan {
  /** The question itself, normalized (defaults filled in). */
  main: NormalizedDraft;
  mainPrice: Price;
  /** The follow-ups (`then`), NFC but not yet normalized, and their prices. */
  followUps: QuestionDraft[];
  followPrices: Price[];
  isPrivate: boolean;
  eta: number;
  openForDays: number;
  variantGroup: string | null;
  shownAs: string | null;
  /** The interest audience asked instead of targeting (docs/audiences.md); null for targeting. */
  audience: AudienceReach | null;
}

export interface AskPlanDeps extends EffectiveDraftDeps {
  projects: Pick<ProjectsRepository, 'exists'>;
  pool: Pick<PoolService, 'count'>;
  audiences: Pick<AudiencesService, 'choose'>;
}

/** Resolves, checks and prices an ask; throws a validation, content or not-found error, having spent nothing. */
export async function planAsk(deps: AskPlanDeps, actor: Actor, body: AskBody, now: Date): Promise<AskPlan> {
  const { draft, openForDays, variantGroup, shownAs, audience, problems } = await effectiveDraft(deps, actor, body);
  problems.push(...validateDraft(draft as LooseDraft, { now }));
  const chosen = await deps.audiences.choose({ ...audience, targeting: draft.targeting }, actor.accountId);
  problems.push(...chosen.problems);
  if (chosen.choice && body.privateDeclaration) {
    problems.push({ field: 'privateDeclaration', code: 'not_allowed', message: 'A private question is answered through its link only; an audience question goes to its members.' });
  }
  const followUps = (body.then ?? []).map((item) => normalizeDraftText(followUpDraft(item)));
  // A follow-up's text is 8 to 600 characters (spec): 8 that can be seen.
  followUps.forEach((f, i) => problems.push(...validateDraft(f as LooseDraft, { now, prefix: `then[${i}]`, minTextLength: 8 })));
  if (body.privateDeclaration && followUps.length) {
    problems.push({ field: 'then', code: 'not_allowed', message: 'A private question is answered through its link only; it cannot have follow-ups for the panel.' });
  }
  if (problems.length) throw validationError(problems);

  const refused = checkContent([...contentFields(draft), ...followUps.flatMap((f, i) => contentFields(f, `then[${i}]`))]);
  if (refused) throw new AppError('content_refused', `${refused.reason} Nothing was spent.`, { category: refused.category, field: refused.field });

  // An empty string is an id too (one no project has), not "no project": only null is that.
  if (body.projectId != null && !(await deps.projects.exists(actor.accountId, body.projectId))) throw notFound('No such project on this account (projectId).');

  const main = normalizeDraft(draft);
  const mainPrice = priceDraft(priceInputOf(main, chosen.choice?.price));
  const followPrices = followUps.map((f) => priceDraft(priceInputOf(normalizeDraft(f))));
  const isPrivate = body.privateDeclaration !== undefined;
  const reach = chosen.choice?.reach ?? null;
  const poolCount = isPrivate ? null : await deps.pool.count({ ...main.targeting, tier: main.tier, audience: reach ?? undefined });
  const eta = poolCount ? etaMinutes({ n: main.n, poolSize: poolCount.size, activeHeads: poolCount.active, rush: main.rush }) : etaMinutes({ n: main.n, poolSize: 0, activeHeads: 0, rush: false });
  return { main, mainPrice, followUps, followPrices, isPrivate, eta, openForDays, variantGroup, shownAs, audience: reach };
}
