import type { Db } from '../../db/database.ts';
import type { Answer } from '../results/results.schemas.ts';

/**
 * What moderation adds to a Result's answers (docs/moderation.md): each answer's latest flag, for
 * the result builder (container.ts passes it as `answerFlags`). Answers removed after an upheld
 * flag are left out of results by the builder itself (answers.removed).
 */
export type AnswerFlag = NonNullable<Answer['flag']>;

/** The latest flag of each of these answers of one question; answers never flagged are absent. */
export async function flagsOf(db: Db, questionId: string, attestationRefs: readonly string[]): Promise<Map<string, AnswerFlag>> {
  const flags = new Map<string, AnswerFlag>();
  if (attestationRefs.length === 0) return flags;
  const rows = await db
    .selectFrom('answer_flags')
    .select(['attestation_ref', 'reason', 'status', 'refund_credits', 'created_at', 'decided_at'])
    .where('question_id', '=', questionId)
    .where('attestation_ref', 'in', [...attestationRefs])
    .orderBy('seq')
    .execute();
  // Oldest first, so the latest flag of an answer wins.
  for (const row of rows) {
    flags.set(row.attestation_ref, {
      reason: row.reason as AnswerFlag['reason'],
      status: row.status as AnswerFlag['status'],
      refundCredits: row.refund_credits,
      createdAt: row.created_at.toISOString(),
      decidedAt: row.decided_at?.toISOString() ?? null,
    });
  }
  return flags;
}
