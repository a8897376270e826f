import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, notFound, validationError } from '../../lib/errors.ts';
import type { Actor } from '../../lib/actor.ts';
import type { CreditHolds } from '../credits/credits.holds.ts';
import { emitEvent } from '../events/outbox.ts';
import { etaMinutes } from '../draft/eta.ts';
import type { PoolService } from '../panel/pool.service.ts';
import { reachOf } from '../panel/targeting.ts';
import { storedDraft } from '../draft/stored-draft.ts';
import { requestHash } from './ask.service.ts';
import { storedResponse, withIdempotency, type Stored } from './idempotency.ts';
import type { LifecycleEffects } from './lifecycle.service.ts';
import type { QuestionsRepository } from './questions.repository.ts';
import { questionView } from './question-view.ts';
import type { AddHeadsBody, AddHeadsQuote, AddHeadsResponse } from './questions.schemas.ts';
import { addDays } from '../../lib/dates.ts';
import { priceDraft } from '../draft/pricing.ts';
import { priceInputOf } from '../estimate/estimate.service.ts';
import type { LooseDraft } from '../draft/draft-validator.ts';

type PricedRow = { answered: number; credits_per_answer: number; draft: unknown; tier: number; private: boolean };

/**
 * The price per added head: the question's own, except for the day's free private question
 * (0 per answer): free is that one question as asked, so heads added to it cost what the
 * estimate says a private question of its draft costs (docs/asking.md), or they would be an
 * unlimited free panel.
 */
function perAnswerOf(row: PricedRow): number {
  if (row.credits_per_answer > 0 || !row.private) return row.credits_per_answer;
  return priceDraft(priceInputOf({ ...storedDraft(row.draft), tier: row.tier } as LooseDraft)).creditsPerAnswer;
}

/**
 * POST /v2/questions/{id}/heads: more answers for a question that closed complete or underfilled.
 * Same wording and targeting and price per answer; heads who already answered are excluded
 * (one answer per head per question); new answers merge with the old. A dry run only quotes.
 */
export function createAddHeadsService(deps: { db: Db; clock: Clock; questions: QuestionsRepository; holds: CreditHolds; pool: PoolService; effects: LifecycleEffects; publicBaseUrl: string }) {
  const { db, clock, questions, holds, pool, effects } = deps;

  /** The pool is counted before any transaction: on the embedded database a second connection would wait for it. */
  /** The heads it can reach: its targeting's, or its audience's members (docs/audiences.md). */
  async function poolOf(row: { draft: unknown; tier: number; audience_id: string | null; min_grade: number | null }) {
    const draft = storedDraft(row.draft);
    return pool.count({ ...draft.targeting, tier: row.tier, audience: reachOf(draft.targeting, row).audience });
  }

  /**
   * `extra` more answers than the question has now: the new target is answered + extra (an
   * underfilled question at 6 of 10 plus 5 heads aims at 11), and exactly extra × price is reserved.
   */
  function quote(row: PricedRow, extra: number, count: { size: number; active: number }): AddHeadsQuote {
    const draft = storedDraft(row.draft);
    // Heads who answered already cannot answer again.
    const poolLeft = Math.max(0, count.size - row.answered);
    const activeLeft = Math.max(0, count.active - row.answered);
    const perAnswer = perAnswerOf(row);
    const total = extra * perAnswer;
    const newTarget = row.answered + extra;
    return {
      n: extra,
      creditsPerAnswer: perAnswer,
      creditsTotal: total,
      etaMinutes: etaMinutes({ n: extra, poolSize: poolLeft, activeHeads: activeLeft, rush: draft.rush }),
      newTarget,
      line: `${extra} more head${extra === 1 ? '' : 's'} × ${perAnswer} credits = ${total} credits (new target ${newTarget})`,
    };
  }

  return {
    async addHeads(actor: Actor, id: string, body: AddHeadsBody, idempotencyKey: string | undefined): Promise<Stored<AddHeadsResponse>> {
      const current = await questions.find(actor.accountId, id);
      if (!current) throw notFound('No such question on this account.');
      const now = clock.now();
      const claim = { accountId: actor.accountId, key: idempotencyKey ?? '', requestHash: requestHash({ path: `/v2/questions/${id}/heads`, body }), now };
      if (!body.dryRun) {
        // The same error as every other route that needs the header (the ask, answer-page started).
        if (!idempotencyKey) {
          throw validationError([{ field: 'idempotency-key', code: 'required', message: 'idempotency-key is required unless dryRun is true.' }], 'Invalid header: idempotency-key is required unless dryRun is true.');
        }
        // A retry replays, even though the question is live again by now.
        const stored = await storedResponse<AddHeadsResponse>(db, claim);
        if (stored) return stored;
      }
      const closedOk = (status: string) => status === 'complete' || status === 'underfilled';
      if (!closedOk(current.status)) {
        throw new AppError('conflict', `Heads can be added to a complete or underfilled question; this one is ${current.status}.`, { status: current.status });
      }
      const count = await poolOf(current);
      if (body.dryRun) return { status: 201, body: { quote: quote(current, body.n, count) }, replayed: false };

      let closesAt: Date | null = null;
      const result = await inTransaction(db, (tx) =>
        withIdempotency<AddHeadsResponse>(tx, claim, async (key) => {
          await key.claim();
          const q = await questions.lock(id, tx);
          if (!q || !closedOk(q.status)) throw new AppError('conflict', `Heads can be added to a complete or underfilled question; this one is ${q?.status}.`);
          const offer = quote(q, body.n, count);
          await holds.reserve(
            {
              accountId: actor.accountId,
              keyId: actor.keyId,
              cap: actor.dailyCapCredits,
              amount: offer.creditsTotal,
              questionId: q.parent_id ?? q.id,
              // Keyed by the reservation after this one: it grows with every addition, so each has its own row.
              uniqueRef: `${q.id}:ask:r${q.credits_reserved + offer.creditsTotal}`,
              title: `Added ${body.n} heads to "${storedDraft(q.draft).text.slice(0, 60)}" (${body.n} × ${offer.creditsPerAnswer} credits)`,
              at: now,
            },
            tx,
          );
          closesAt = addDays(now, q.open_for_days);
          // The reopened row comes back from the update itself: the response's and the event's Question.
          // Its answers from now on spend the added heads' price (a free question's first ones stay free).
          const row = await questions.updateReturning(q.id, { n: offer.newTarget, credits_per_answer: offer.creditsPerAnswer, credits_reserved: q.credits_reserved + offer.creditsTotal, status: 'live', closed_at: null, closes_at: closesAt, min_answers: null, updated_at: now }, tx);
          const question = questionView(row, deps.publicBaseUrl);
          await emitEvent(tx, {
            accountId: actor.accountId,
            type: 'question.reserved',
            uniqueRef: `${q.id}:question.reserved:r${q.credits_reserved + offer.creditsTotal}`,
            payload: { question, creditsReserved: offer.creditsTotal, addedHeads: body.n },
            at: now,
          });
          return { status: 201, body: { question, quote: offer, creditsReserved: offer.creditsTotal } };
        }),
      );
      if (!result.replayed) {
        effects.changed(id);
        await effects.wentLive({ id, closesAt });
      }
      return result;
    },
  };
}
export type AddHeadsService = ReturnType<typeof createAddHeadsService>;
