import type { Clock } from '../../lib/clock.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { Actor } from '../../lib/actor.ts';
import type { InsightsEngine } from './insights.engine.ts';
import { CLOSED_STATUSES, type InsightsRepository, type QuestionForInsights } from './insights.repository.ts';
import type { Insights } from './insights.schemas.ts';
import type { Translator } from '../text/translate.ts';
import { translateSummary } from './summary-translation.ts';

/**
 * Insights of a question (spec "Insights", "Insights kind"; docs/insights.md):
 * - GET: the latest summary or null;
 * - POST while open: a fresh interim summary, at most once every 10 minutes (429 `rate_limited`
 *   with `retryAfterMs` and Retry-After), with at least three written answers (409
 *   `too_few_answers`);
 * - POST after close: the final summary of that close, made on the spot if the job has not made it
 *   yet; it is not regenerated on request;
 * - the `insights-final` job: a final summary for every recent close (complete, underfilled or
 *   cancelled) with at least three written answers;
 * - an answer removed after review: the summary is remade from the answers still in view.
 */
export const REFRESH_MS = 10 * 60_000;
export const MIN_WRITTEN = 3;
/** The final pass looks this far back, so one that was down for a while still catches up. */
export const FINAL_LOOKBACK_MS = 7 * 86_400_000;

const isClosed = (status: string) => (CLOSED_STATUSES as readonly string[]).includes(status);

export function createInsightsService(deps: {
  repo: InsightsRepository;
  clock: Clock;
  engine: InsightsEngine;
  translator: Translator;
  log?: { error(obj: object, msg: string): void };
}) {
  const { repo, clock, engine, translator } = deps;

  async function generate(q: QuestionForInsights, kind: Insights['kind']): Promise<Insights> {
    const [answers, counts] = await Promise.all([repo.material(q.id), repo.counts(q.id)]);
    const sourceLanguage = q.draft.language ?? 'en';
    const summary = await engine.summarize({
      questionText: q.draft.text ?? '',
      options: (q.draft.options ?? []).map((o) => o.label),
      sourceLanguage,
      answers,
    });
    const generatedAt = clock.now();
    const translated = await translateSummary(summary, sourceLanguage, q.accountLanguage, translator);
    return {
      questionId: q.id,
      language: q.accountLanguage,
      sourceLanguage,
      takeaway: translated.takeaway,
      themes: translated.themes,
      sentiment: summary.sentiment,
      basedOn: summary.basedOn,
      answersAtTime: Math.max(counts.all, summary.basedOn),
      original: translated.original,
      kind,
      generatedAt: generatedAt.toISOString(),
      refreshAfter: kind === 'interim' ? new Date(generatedAt.getTime() + REFRESH_MS).toISOString() : null,
      engine: summary.engine,
    };
  }

  async function tooFew(q: QuestionForInsights): Promise<boolean> {
    return (await repo.counts(q.id)).written < MIN_WRITTEN;
  }

  /** The final summary of the question's current close; made now when missing. Null with too few answers. */
  async function final(q: QuestionForInsights): Promise<Insights | null> {
    const closedAt = q.closedAt!;
    const latest = await repo.latest(q.id);
    if (latest?.payload && latest.kind === 'final' && latest.finalFor && latest.finalFor.getTime() >= closedAt.getTime()) return latest.payload;
    if (await tooFew(q)) {
      await repo.saveFinal(q.id, closedAt, null);
      return null;
    }
    const insights = await generate(q, 'final');
    await repo.saveFinal(q.id, closedAt, insights);
    return insights;
  }

  return {
    /** For the results builder: the latest summary of a question whose account was checked already. */
    async latest(questionId: string): Promise<Insights | null> {
      return (await repo.latest(questionId))?.payload ?? null;
    },

    async get(actor: Actor, id: string): Promise<Insights | null> {
      if (!(await repo.question(id, actor.accountId))) throw notFound('No such question on this account.');
      return (await repo.latest(id))?.payload ?? null;
    },

    async refresh(actor: Actor, id: string): Promise<Insights> {
      const q = await repo.question(id, actor.accountId);
      if (!q) throw notFound('No such question on this account.');
      if (isClosed(q.status) && q.closedAt) {
        const insights = await final(q);
        if (!insights) throw new AppError('too_few_answers');
        return insights;
      }
      if (await tooFew(q)) throw new AppError('too_few_answers');
      const now = clock.now();
      const claim = await repo.claim(id, now, new Date(now.getTime() - REFRESH_MS));
      if (!claim.claimed) {
        const retryAfterMs = Math.max(1, (claim.standing?.getTime() ?? now.getTime()) + REFRESH_MS - now.getTime());
        throw new AppError(
          'rate_limited',
          `A summary was made less than 10 minutes ago; try again in ${Math.ceil(retryAfterMs / 1000)} s.`,
          { retryAfterMs },
          { 'Retry-After': String(Math.ceil(retryAfterMs / 1000)) },
        );
      }
      try {
        const insights = await generate(q, 'interim');
        if (!(await repo.saveInterim(id, insights))) {
          // Closed while the summary was being made: the final one is what stands now.
          const closed = await repo.question(id, actor.accountId);
          if (closed?.closedAt) return (await final(closed)) ?? insights;
        }
        return insights;
      } catch (error) {
        await repo.release(id, now, claim.previous);
        throw error;
      }
    },

    /** In the transaction that removes an answer after review: the standing summary is stale (repository markStale). */
    markStale: repo.markStale,

    /**
     * After an answer was removed after review (issue 8, point 18): the summary is made again from
     * the answers still in view, so `basedOn` counts them and no quote comes from the removed one.
     * A closed question gets its final summary remade (or none, when fewer than three written
     * answers are left); a live one with an interim summary gets a fresh interim, outside the
     * 10-minute refresh limit (the requester did not ask for it). Failures are logged; the final
     * pass tries a closed question again within a minute.
     */
    async remake(questionId: string): Promise<void> {
      try {
        const q = await repo.question(questionId);
        if (!q) return;
        if (isClosed(q.status) && q.closedAt) {
          await final(q);
          return;
        }
        const latest = await repo.latest(q.id);
        if (latest?.kind !== 'interim' || !latest.payload) return;
        if (await tooFew(q)) await repo.saveInterim(q.id, null);
        else await repo.saveInterim(q.id, await generate(q, 'interim'));
      } catch (error) {
        deps.log?.error({ err: error, questionId }, 'insights after a removal failed');
      }
    },

    /** One final pass: every recent close still without its final summary. Returns how many were handled without error. */
    async finalPass(limit = 50): Promise<number> {
      const due = await repo.closedWithoutFinal(new Date(clock.now().getTime() - FINAL_LOOKBACK_MS), limit);
      let handled = 0;
      for (const { id } of due) {
        // One question that fails is logged and tried again next pass; it does not stop the others.
        try {
          const q = await repo.question(id);
          if (q?.closedAt && isClosed(q.status)) await final(q);
          handled++;
        } catch (error) {
          deps.log?.error({ err: error, questionId: id }, 'final insights failed');
        }
      }
      return handled;
    },
  };
}
export type InsightsService = ReturnType<typeof createInsightsService>;
