import { createHash } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { randomBase62 } from '../../lib/base62.ts';
import { AppError, notFound, validationError, type ValidationItem } from '../../lib/errors.ts';
import type { Actor } from '../../lib/actor.ts';
import type { CreditHolds } from '../credits/credits.holds.ts';
import { emitEvent } from '../events/outbox.ts';
import { priceDraft } from '../draft/pricing.ts';
import { priceInputOf } from '../estimate/estimate.service.ts';
import { etaMinutes } from '../draft/eta.ts';
import type { PoolService } from '../panel/pool.service.ts';
import type { ProjectsRepository } from '../projects/projects.repository.ts';
import { TEMPLATES } from '../draft/templates.data.ts';
import type { DraftsRepository } from '../drafts/drafts.repository.ts';
import { validateDraft, type LooseDraft } from '../draft/draft-validator.ts';
import { normalizeDraft } from '../draft/draft-defaults.ts';
import { normalizeDraftText } from '../draft/draft-text.ts';
import type { QuestionDraft } from '../draft/draft.schemas.ts';
import type { AskBody, FollowUp } from './ask.schemas.ts';
import { checkContent, contentFields } from '../draft/content-check.ts';
import { storedResponse, withIdempotency, type Stored } from './idempotency.ts';
import type { IdempotencyRepository } from './idempotency.repository.ts';
import { questionRow } from './question-row.ts';
import type { QuestionsRepository } from './questions.repository.ts';
import { questionView } from './question-view.ts';
import type { Question } from './questions.schemas.ts';
import { addDays, startOfUtcDay } from '../../lib/dates.ts';

/**
 * The ask (docs/asking.md): validate, price, then in ONE transaction claim the Idempotency-Key,
 * reserve the full price (follow-ups included), create the question and write its ledger row and
 * `question.reserved` event (RELIABILITY R1, R3). A retry with the same key replays the stored
 * 201; the same key with another body is a 409 and spends nothing.
 */
export const DEFAULT_OPEN_DAYS = 7;
/** Emit `credits.low` when an ask takes available credits below this. */
export const CREDITS_LOW_THRESHOLD = 1000;

export type AskResult = Stored<{ question: Question }>;

export interface AskSideEffects {
  /** Called after commit for every question created (timers, wake-ups). */
  questionCreated(question: { id: string; status: string; scheduledFor: Date | null; closesAt: Date | null }): Promise<void>;
}

/** Canonical JSON (sorted keys), so the same body always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value as object)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

export function requestHash(body: unknown): string {
  return createHash('sha256').update(canonical(body)).digest('hex');
}

const truncate = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

interface Deps {
  db: Db;
  clock: Clock;
  questions: QuestionsRepository;
  drafts: DraftsRepository;
  projects: Pick<ProjectsRepository, 'exists'>;
  idempotency: Pick<IdempotencyRepository, 'deleteExpired'>;
  holds: CreditHolds;
  pool: PoolService;
  effects: AskSideEffects;
  publicBaseUrl: string;
}

export function createAskService(deps: Deps) {
  const { db, clock, questions, drafts, projects, holds, pool } = deps;

  /** The draft the ask is about: template or saved draft or original question as base, `draft` over it. */
  async function effectiveDraft(actor: Actor, body: AskBody) {
    let base: Record<string, unknown> = {};
    let openForDays = DEFAULT_OPEN_DAYS;
    let variantGroup: string | null = null;
    let shownAs: string | null = null;
    const problems: ValidationItem[] = [];
    if (body.templateId !== undefined) {
      const template = TEMPLATES.find((t) => t.id === body.templateId);
      if (!template) problems.push({ field: 'templateId', code: 'unknown_value', message: `No template "${body.templateId}"; see GET /v1/templates.` });
      else base = { ...template.draft };
    }
    if (body.fromDraftId !== undefined) {
      const saved = await drafts.find(actor.accountId, body.fromDraftId);
      if (!saved) throw notFound('No such draft on this account (fromDraftId).');
      const { interestAudienceId, minGrade, interestPrice, answeredBy, openForDays: days, shownAs: savedShownAs, ...fields } = saved.draft as Record<string, unknown>;
      void minGrade, void interestPrice, void answeredBy;
      if (typeof savedShownAs === 'string') shownAs = savedShownAs;
      if (interestAudienceId !== undefined) {
        problems.push({ field: 'fromDraftId', code: 'not_allowed', message: 'This draft asks an interest audience; audiences cannot be asked through the API yet.' });
      }
      if (days === 1) openForDays = 1;
      base = { ...base, ...fields };
    }
    if (body.variantOf !== undefined) {
      const original = await questions.find(actor.accountId, body.variantOf);
      if (!original) throw notFound('No such question on this account (variantOf).');
      const { scheduledFor, ...fields } = original.draft as Record<string, unknown>;
      void scheduledFor;
      base = { ...base, ...fields, n: original.n };
      variantGroup = original.variant_group ?? original.id;
      openForDays = original.open_for_days;
    }
    // NFC before anything checks, prices or stores it (docs/asking.md "Text").
    const draft = normalizeDraftText({ ...base, ...body.draft }) as QuestionDraft;
    return { draft, openForDays, variantGroup, shownAs, problems };
  }

  function followUpDraft(item: FollowUp): QuestionDraft {
    return {
      type: item.type ?? 'free_text',
      text: item.text,
      ...(item.options ? { options: item.options } : {}),
      n: item.n ?? 20,
      tier: (item.tier ?? 2) as 1 | 2 | 3,
      ...(item.reason ? { reason: item.reason } : {}),
    };
  }

  return {
    async ask(actor: Actor, body: AskBody, idempotencyKey: string, source: 'api' | 'mcp' = 'api'): Promise<AskResult> {
      const now = clock.now();
      const hash = requestHash(body);
      const stored = await storedResponse<{ question: Question }>(db, { accountId: actor.accountId, key: idempotencyKey, requestHash: hash, now });
      if (stored) return stored;
      const { draft, openForDays, variantGroup, shownAs, problems } = await effectiveDraft(actor, body);
      problems.push(...validateDraft(draft as LooseDraft, { now }));
      const followUps = (body.then ?? []).map((item) => normalizeDraftText(followUpDraft(item)));
      // A follow-up's text is 8 to 600 characters (spec): 8 that can be seen.
      followUps.forEach((f, i) => problems.push(...validateDraft(f as LooseDraft, { now, prefix: `then[${i}]`, minTextLength: 8 })));
      if (body.privateDeclaration && followUps.length) {
        problems.push({ field: 'then', code: 'not_allowed', message: 'A private question is answered through its link only; it cannot have follow-ups for the panel.' });
      }
      if (problems.length) throw validationError(problems);

      const refused = checkContent([...contentFields(draft), ...followUps.flatMap((f, i) => contentFields(f, `then[${i}]`))]);
      if (refused) throw new AppError('content_refused', `${refused.reason} Nothing was spent.`, { category: refused.category, field: refused.field });

      if (body.projectId && !(await projects.exists(actor.accountId, body.projectId))) throw notFound('No such project on this account (projectId).');

      const main = normalizeDraft(draft);
      const mainPrice = priceDraft(priceInputOf(main));
      const followPrices = followUps.map((f) => priceDraft(priceInputOf(normalizeDraft(f))));
      const isPrivate = body.privateDeclaration !== undefined;
      const poolCount = isPrivate ? null : await pool.count({ ...main.targeting, tier: main.tier });
      const eta = poolCount ? etaMinutes({ n: main.n, poolSize: poolCount.size, activeHeads: poolCount.active, rush: main.rush }) : etaMinutes({ n: main.n, poolSize: 0, activeHeads: 0, rush: false });
      const created: Array<{ id: string; status: string; scheduledFor: Date | null; closesAt: Date | null }> = [];

      const result = await inTransaction(db, (tx) =>
        withIdempotency<{ question: Question }>(tx, { accountId: actor.accountId, key: idempotencyKey, requestHash: hash, now }, async () => {
        created.length = 0; // (a retried attempt starts afresh: db/transaction.ts)
        // Private asks of one account queue up here, so two at once cannot both be today's free one.
        if (isPrivate) await questions.lockPrivateAsks(actor.accountId, tx);
        const today = isPrivate ? await questions.countPrivateSince(actor.accountId, startOfUtcDay(now), tx) : null;
        // One private question a day is free (docs/asking.md); after that it costs what the estimate says.
        const freePrivate = isPrivate && today!.count === 0;
        const perAnswer = freePrivate ? 0 : mainPrice.creditsPerAnswer;
        const mainTotal = perAnswer * main.n;
        const total = mainTotal + followPrices.reduce((sum, p) => sum + p.creditsTotal, 0);

        const id = newId('question');

        const scheduledFor = main.scheduledFor ? new Date(main.scheduledFor) : null;
        const opensAt = scheduledFor ?? now;
        const closesAt = addDays(opensAt, openForDays);
        const status = scheduledFor ? 'scheduled' : 'live';
        // What the question and its follow-ups share: who asked, how, when, filed where.
        const common = {
          accountId: actor.accountId,
          keyId: actor.keyId,
          source,
          etaMinutes: eta,
          openForDays,
          at: now,
          projectId: body.projectId ?? null,
          labels: [...new Set(body.labels ?? [])],
        };
        const row = await questions.insertReturning(
          questionRow({
            ...common,
            id,
            status,
            // shownAs (from a saved draft) is kept with the draft: the answer page shows it.
            draft: shownAs ? { ...main, shownAs } : main,
            creditsPerAnswer: perAnswer,
            creditsReserved: mainTotal,
            scheduledFor,
            liveAt: scheduledFor ? null : now,
            closesAt,
            externalRef: body.externalRef ?? null,
            publicCode: main.publicResults ? randomBase62(12) : null,
            variantGroup,
            parentId: null,
            minConfidence: null,
            private: isPrivate,
          }),
          tx,
        );
        created.push({ id, status, scheduledFor, closesAt });

        for (const [i, followUp] of followUps.entries()) {
          await questions.insert(
            questionRow({
              ...common,
              id: newId('question'),
              status: 'draft',
              draft: normalizeDraft(followUp),
              creditsPerAnswer: followPrices[i].creditsPerAnswer,
              creditsReserved: followPrices[i].creditsTotal,
              scheduledFor: null,
              liveAt: null,
              closesAt: null,
              externalRef: null,
              publicCode: null,
              variantGroup: null,
              parentId: id,
              minConfidence: body.then![i].minConfidence ?? null,
              private: false,
            }),
            tx,
          );
        }

        await emitEvent(tx, {
          accountId: actor.accountId,
          type: 'question.reserved',
          uniqueRef: `${id}:question.reserved`,
          payload: { questionId: id, status, creditsReserved: total, followUps: followUps.length },
          at: now,
        });

        // The money last: the account's balance row stays locked from here to the commit, and
        // asks of one account queue on it, so as little as possible runs after it.
        const title = `Asked: "${truncate(main.text, 60)}" (${main.n} × ${perAnswer} credits${followUps.length ? ` + ${followUps.length} follow-up${followUps.length > 1 ? 's' : ''}` : ''})`;
        const money = await holds.reserve({ accountId: actor.accountId, keyId: actor.keyId, cap: actor.dailyCapCredits, amount: total, questionId: id, uniqueRef: `${id}:ask`, title, at: now }, tx);
        if (money.availableBefore >= CREDITS_LOW_THRESHOLD && money.availableAfter < CREDITS_LOW_THRESHOLD) {
          await emitEvent(tx, {
            accountId: actor.accountId,
            type: 'credits.low',
            uniqueRef: `${id}:credits.low`,
            payload: { available: money.availableAfter, threshold: CREDITS_LOW_THRESHOLD },
            at: now,
          });
        }

        return { status: 201, body: { question: questionView(row, deps.publicBaseUrl) } };
      }),
      );

      for (const question of created) await deps.effects.questionCreated(question);
      return result;
    },

    /** Deletes keys past their 24-hour window (R1.5). */
    async reapIdempotencyKeys(): Promise<number> {
      return deps.idempotency.deleteExpired(clock.now());
    },
  };
}
export type AskService = ReturnType<typeof createAskService>;
