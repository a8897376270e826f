import { createHash } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { inTransaction, statementRider } from '../../db/transaction.ts';
import type { CapturedStatement } from '../../lib/job.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { Actor } from '../../lib/actor.ts';
import type { CreditHolds } from '../credits/credits.holds.ts';
import { outboxRider } from '../events/outbox.ts';
import type { PoolService } from '../panel/pool.service.ts';
import type { AudiencesService } from '../audiences/audiences.service.ts';
import type { ProjectsRepository } from '../projects/projects.repository.ts';
import type { DraftsRepository } from '../drafts/drafts.repository.ts';
import type { AskBody } from './ask.schemas.ts';
import { planAsk, type AskPlan } from './ask-plan.ts';
import { askRows } from './ask-rows.ts';
import { checkOwnMedia, type OwnFileLookup } from './own-media.ts';
import { storedResponse, withIdempotency, type Stored } from './idempotency.ts';
import type { IdempotencyRepository } from './idempotency.repository.ts';
import type { QuestionsRepository } from './questions.repository.ts';
import { questionView } from './question-view.ts';
import { NO_COUNTERS, type ServiceCounters } from '../../lib/service-counters.ts';
import type { Question } from './questions.schemas.ts';
import { addDays, startOfUtcDay } from '../../lib/dates.ts';

/** Days a question stays open unless its base says otherwise (decided in effective-draft.ts). */
export { DEFAULT_OPEN_DAYS } from './effective-draft.ts';

export type AskResult = Stored<{ question: Question }>;

/**
 * What an ask of a body would reserve if it ran now: the same plan and the same rule for the free
 * private question as the ask itself (MCP shows it before asking for `confirm: true`).
 */
export interface AskQuote {
  n: number;
  creditsPerAnswer: number;
  /** The question's own reservation (n × creditsPerAnswer; 0 for the day's free private question). */
  mainCredits: number;
  /** What the follow-ups (`then`) reserve on top. */
  followUpCredits: number;
  creditsTotal: number;
  etaMinutes: number;
  freePrivate: boolean;
}

/** The reservation of a plan: the main question (free when it is the day's first private one) plus its follow-ups. */
function priceOf(plan: AskPlan, freePrivate: boolean): Omit<AskQuote, 'etaMinutes' | 'freePrivate'> {
  const perAnswer = freePrivate ? 0 : plan.mainPrice.creditsPerAnswer;
  const mainCredits = perAnswer * plan.main.n;
  const followUpCredits = plan.followPrices.reduce((sum, p) => sum + p.creditsTotal, 0);
  return { n: plan.main.n, creditsPerAnswer: perAnswer, mainCredits, followUpCredits, creditsTotal: mainCredits + followUpCredits };
}

/** A question an ask created, as its side effects need it. */
export interface CreatedQuestion {
  id: string;
  status: string;
  scheduledFor: Date | null;
  closesAt: Date | null;
}

export interface AskSideEffects {
  /**
   * The statements that write the question's timers (go live, close: lib/timers.ts), which the ask
   * runs in its transaction, so a committed question always has them and they cost no
   * transaction of their own; none without a job queue.
   */
  timers(question: CreatedQuestion): Promise<CapturedStatement[]>;
  /** After commit, for the question created: wake-ups. */
  questionCreated(question: CreatedQuestion): void;
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
  idempotency: Pick<IdempotencyRepository, 'deleteExpired' | 'findUnexpired'>;
  holds: CreditHolds;
  pool: PoolService;
  audiences: Pick<AudiencesService, 'choose'>;
  effects: AskSideEffects;
  publicBaseUrl: string;
  /**
   * What a URL names when it is one of our uploads' publicUrls (own-media.ts): media of ours must
   * be a finished upload of the asking account, of the right kind, and a click test stores its image's size, so its
   * heatmap gets the aspect with no query on the result path (docs/uploads.md "Click tests").
   * Absent: nothing checked or stored.
   */
  ownFile?: OwnFileLookup;
  /** Operators' counters (docs/operations.md "Metrics"); default: none. */
  counters?: Pick<ServiceCounters, 'asked'>;
}

/**
 * The ask (docs/asking.md): validate, price, then in ONE transaction claim the Idempotency-Key,
 * reserve the full price (follow-ups included), create the question and write its ledger row and
 * `question.reserved` event (RELIABILITY R1, R3). A retry with the same key replays the stored
 * 201; the same key with another body is a 409 and spends nothing.
 */
export function createAskService(deps: Deps) {
  const { db, clock, questions, holds } = deps;

  return {
    async ask(actor: Actor, body: AskBody, idempotencyKey: string, source: 'api' | 'mcp' = 'api'): Promise<AskResult> {
      const now = clock.now();
      const claim = { accountId: actor.accountId, key: idempotencyKey, requestHash: requestHash(body), now };
      let plan: AskPlan;
      let stimulus: Awaited<ReturnType<typeof checkOwnMedia>>;
      try {
        plan = await planAsk(deps, actor, body, now);
        // Looked up before the transaction, which stays short (docs/architecture.md).
        stimulus = await checkOwnMedia(deps.ownFile, actor.accountId, plan.main, plan.followUps);
      } catch (error) {
        // A retry replays its stored response even when the request would no longer pass (a
        // scheduledFor now in the past, a draft deleted since), and another body under its key
        // is refused before what is wrong with that body. Read only when planning failed: a
        // request that plans finds its stored response in its claim (withIdempotency), so a
        // fresh ask costs no read of its key.
        const stored = await storedResponse<{ question: Question }>(db, claim);
        if (stored) return stored;
        throw error;
      }
      const { main, followUps, isPrivate } = plan;
      const created: CreatedQuestion[] = [];

      const result = await inTransaction(db, (tx) =>
        withIdempotency<{ question: Question }>(tx, claim, async (key) => {
        created.length = 0; // (a retried attempt starts afresh: db/transaction.ts)
        let today: { count: number } | null = null;
        if (isPrivate) {
          // The key first (advisory locks in order: docs/architecture.md), then private asks of one
          // account queue up here, so two at once cannot both be today's free one.
          await key.claim();
          await questions.lockPrivateAsks(actor.accountId, tx);
          today = await questions.countPrivateSince(actor.accountId, startOfUtcDay(now), tx);
        }
        // One private question a day is free (docs/asking.md); after that it costs what the estimate says.
        const freePrivate = isPrivate && today!.count === 0;
        const { creditsPerAnswer: perAnswer, mainCredits: mainTotal, creditsTotal: total } = priceOf(plan, freePrivate);

        const id = newId('question');

        const scheduledFor = main.scheduledFor ? new Date(main.scheduledFor) : null;
        const opensAt = scheduledFor ?? now;
        const closesAt = addDays(opensAt, plan.openForDays);
        const status = scheduledFor ? 'scheduled' : 'live';
        const rows = askRows({ actor, body, source, plan, now }, { id, status, creditsPerAnswer: perAnswer, creditsReserved: mainTotal, scheduledFor, closesAt });
        // Any other ask claims its key in the question's own INSERT, one statement: no question
        // is written unless the key was claimed (a busy key is 409, a stored response replays).
        const inserted = await questions.insertReturning(
          {
            ...rows.question,
            stimulus_width: stimulus?.width ?? null,
            stimulus_height: stimulus?.height ?? null,
            audience_id: plan.audience?.id ?? null,
            min_grade: plan.audience?.minGrade ?? null,
          },
          tx,
          isPrivate ? undefined : key.toClaim,
        );
        if (!isPrivate) key.settle(inserted.claim);
        const row = inserted.row!;
        const question: CreatedQuestion = { id, status, scheduledFor, closesAt };
        created.push(question);
        await questions.insertMany(rows.followUps, tx);
        // The timers ride in the reservation's statement below (one round trip fewer per ask).
        const timers = (await deps.effects.timers(question)).map((statement) => statementRider(tx, statement));

        // data: the Question as the API returns it (the 201's), and what this ask reserved in
        // all (follow-ups included; the question's own creditsReserved is its share alone).
        const view = questionView(row, deps.publicBaseUrl);
        const reserved = outboxRider(tx, {
          accountId: actor.accountId,
          type: 'question.reserved',
          uniqueRef: `${id}:question.reserved`,
          payload: { question: view, creditsReserved: total },
          at: now,
        });
        const response = { status: 201, body: { question: view } };

        // The money last: the account's balance row stays locked from here to the commit, and
        // asks of one account queue on it, so nothing runs after it but the commit. The timers,
        // the event and the stored response ride in the reservation's statement (one round trip);
        // it also writes `credits.low` and `connection.cap_warning` when it crosses their thresholds.
        const title = `Asked: "${truncate(main.text, 60)}" (${main.n} × ${perAnswer} credits${followUps.length ? ` + ${followUps.length} follow-up${followUps.length > 1 ? 's' : ''}` : ''})`;
        const riders = [...timers, reserved, key.completion(response)];
        await holds.reserve({ accountId: actor.accountId, keyId: actor.keyId, cap: actor.dailyCapCredits, amount: total, questionId: id, uniqueRef: `${id}:ask`, title, at: now, riders }, tx);
        // The free private question reserves nothing: its timers and event are written alone (its response by withIdempotency).
        for (const timer of timers) if (!timer.carried) await timer.writeAlone();
        if (!reserved.carried) await reserved.writeAlone();
        return response;
      }),
      );

      for (const question of created) deps.effects.questionCreated(question);
      // Committed, and not a replay of a stored response (that created nothing).
      if (created.length > 0) (deps.counters ?? NO_COUNTERS).asked();
      return result;
    },

    /**
     * The price of an ask without asking: validates and plans exactly as the ask does (so it throws
     * the same validation, content and not-found errors) and writes nothing. The free private
     * question is judged now; the ask judges it again under its lock.
     */
    async quote(actor: Actor, body: AskBody): Promise<AskQuote> {
      const now = clock.now();
      const plan = await planAsk(deps, actor, body, now);
      const freePrivate = plan.isPrivate && (await questions.countPrivateSince(actor.accountId, startOfUtcDay(now))).count === 0;
      return { ...priceOf(plan, freePrivate), etaMinutes: plan.eta, freePrivate };
    },

    /**
     * When a response was stored under this Idempotency-Key of the account (ask or add heads),
     * null when none is stored or its 24 hours are over. MCP's derived keys use it to keep their
     * own shorter window (docs/agents.md "Safety rules").
     */
    async keyStoredAt(actor: Actor, idempotencyKey: string): Promise<Date | null> {
      const row = await deps.idempotency.findUnexpired(actor.accountId, idempotencyKey, clock.now());
      return row ? row.created_at : null;
    },

    /** Deletes keys past their 24-hour window (R1.5). */
    async reapIdempotencyKeys(): Promise<number> {
      return deps.idempotency.deleteExpired(clock.now());
    },
  };
}
export type AskService = ReturnType<typeof createAskService>;
