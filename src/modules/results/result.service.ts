import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { QuestionsTable } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import { answerLabels } from '../answers/answer-format.ts';
import type { NormalizedDraft } from '../questions/draft-defaults.ts';
import { leaderConfidence } from '../questions/confidence.ts';
import type { Answer, Result } from './results.schemas.ts';
import { flagsOf } from '../moderation/answer-flags.ts';

/**
 * The Result of a question. This first version gives the status, the counts, the distribution
 * (from the tally kept with each answer), the mean of a scale, a summary by the confidence test
 * of docs/lifecycle.md, and the latest answers; breakdowns, filters, intervals and heatmaps are
 * built on it by the results module.
 */
type Row = Selectable<QuestionsTable>;
export const RESULT_ANSWERS = 50;

const STATUS: Record<string, Result['status']> = {
  draft: 'in_progress',
  scheduled: 'in_progress',
  live: 'in_progress',
  complete: 'complete',
  underfilled: 'underfilled',
  cancelled: 'cancelled',
  refused: 'cancelled',
};

export function distributionOf(row: Row): Result['distribution'] {
  const draft = row.draft as unknown as NormalizedDraft;
  if (row.type === 'free_text' || row.type === 'click_test') return [];
  return answerLabels(draft).map((label) => {
    const count = row.tally[label] ?? 0;
    return { option: label, count, share: row.answered ? count / row.answered : 0 };
  });
}

function summaryOf(row: Row, distribution: Result['distribution']): Result['summary'] {
  if (row.answered === 0) return { winner: null, margin: null, confidence: null, note: 'No answers yet.', suggestedFollowUp: null };
  if (distribution.length === 0) {
    return { winner: null, margin: null, confidence: null, note: `${row.answered} written answer${row.answered === 1 ? '' : 's'} so far.`, suggestedFollowUp: null };
  }
  const sorted = [...distribution].sort((a, b) => b.count - a.count);
  const confidence = leaderConfidence(sorted.map((d) => d.count), row.answered);
  const margin = sorted[0].share - (sorted[1]?.share ?? 0);
  // A winner is named only when the lead passes the 95% test (confidence medium or high).
  const winner = confidence === 'medium' || confidence === 'high' ? sorted[0].option : null;
  const note = winner
    ? `${winner} leads by ${Math.round(margin * 100)} points; the lead is ${confidence === 'high' ? 'clear' : 'likely real'}.`
    : `No clear leader yet: ${sorted[0].option} and ${sorted[1]?.option ?? 'the rest'} are within the margin of error.`;
  return { winner, margin, confidence, note, suggestedFollowUp: winner ? `Why did people choose ${winner}?` : null };
}

export function createResultService(deps: { db: Db }) {
  const { db } = deps;

  async function answersOf(questionId: string): Promise<{ answers: Answer[]; medianSeconds: number | null; simulated: boolean }> {
    const rows = await db
      .selectFrom('answers')
      .select(['option_label', 'text', 'reason', 'tier', 'attestation_ref', 'answered_at', 'pinned', 'answer'])
      .where('question_id', '=', questionId)
      .where('removed', '=', false)
      .orderBy('pinned', 'desc')
      .orderBy('seq', 'desc')
      .limit(RESULT_ANSWERS)
      .execute();
    const stats = await db
      .selectFrom('answers')
      .select([
        sql<number | null>`percentile_cont(0.5) WITHIN GROUP (ORDER BY dwell_ms) / 1000.0`.as('median'),
        sql<boolean>`bool_or(source = 'simulator')`.as('simulated'),
      ])
      .where('question_id', '=', questionId)
      .where('removed', '=', false)
      .executeTakeFirstOrThrow();
    // Each answer's latest flag, or null (docs/moderation.md).
    const flags = await flagsOf(db, questionId, rows.map((r) => r.attestation_ref));
    return {
      answers: rows.map((r) => {
        const taps = (r.answer as { taps?: Array<{ x: number; y: number }> }).taps;
        return {
          option: r.option_label,
          text: r.text,
          reason: r.reason,
          tier: r.tier,
          attestationRef: r.attestation_ref,
          answeredAt: r.answered_at.toISOString(),
          pinned: r.pinned,
          flag: flags.get(r.attestation_ref) ?? null,
          ...(taps ? { taps } : {}),
        };
      }),
      medianSeconds: stats.median === null ? null : Math.round(stats.median * 10) / 10,
      simulated: stats.simulated === true,
    };
  }

  return {
    async build(row: Row): Promise<Result> {
      // Answers removed after an upheld flag count nowhere in a result; `answered` keeps them (docs/moderation.md).
      const removed = await db.selectFrom('answers').select((eb) => eb.fn.countAll<number>().as('n')).where('question_id', '=', row.id).where('removed', '=', true).executeTakeFirstOrThrow();
      row = { ...row, answered: row.answered - Number(removed.n) };
      const draft = row.draft as unknown as NormalizedDraft;
      const distribution = distributionOf(row);
      const { answers, medianSeconds, simulated } = await answersOf(row.id);
      let mean: number | null = null;
      if (row.type === 'scale_1_5' && row.answered) {
        mean = distribution.reduce((sum, d) => sum + Number(d.option) * d.count, 0) / row.answered;
      }
      return {
        questionId: row.id,
        status: STATUS[row.status],
        nRequested: row.n,
        nAccepted: row.answered,
        distribution,
        mean,
        summary: summaryOf(row, distribution),
        tier: row.tier,
        language: draft.language,
        verificationLine: simulated
          ? 'Answered by simulated heads (development mode), not real people.'
          : row.answered
            ? `Answered by ${row.answered} verified head${row.answered === 1 ? '' : 's'} of tier ${row.tier} or above.`
            : 'No answers yet.',
        medianSeconds,
        creditsSpent: row.credits_spent,
        answers,
        refundCredits: row.credits_refunded,
      };
    },

    async forAccount(accountId: string, id: string): Promise<Result> {
      const row = await db.selectFrom('questions').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
      if (!row) throw notFound('No such question on this account.');
      return this.build(row);
    },
  };
}
export type ResultService = ReturnType<typeof createResultService>;
