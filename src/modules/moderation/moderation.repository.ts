import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { AnswerFlagsTable, AnswersTable, DisputesTable } from '../../db/schema.ts';

/**
 * The partial unique indexes' predicate (one open flag per answer, one open dispute per question),
 * written as a literal in ON CONFLICT: PostgreSQL matches the conflict target to the index while
 * planning, and a prepared statement (db/prepared-statements.ts) is planned without its values,
 * so `status = $1` would match no index there.
 */
const OPEN = sql<'open'>`'open'`;

export type FlagRow = Selectable<AnswerFlagsTable>;
export type DisputeRow = Selectable<DisputesTable>;
type AnswerRow = Selectable<AnswersTable>;

/** What deciding a flag or a dispute writes on its row. */
type FlagDecision = Pick<FlagRow, 'status' | 'decided_at' | 'refund_credits'>;
type DisputeDecision = Pick<DisputeRow, 'status' | 'decided_at' | 'decision_note' | 'refund_credits'>;

export interface FlagFilter {
  status?: string;
  questionId?: string;
  limit?: number;
}

export interface DisputeFilter {
  status?: string;
  accountId?: string;
  limit?: number;
}

/**
 * SQL of flags, pins and disputes (docs/moderation.md): the answer_flags and disputes tables and
 * the answers' `pinned` and `removed` columns. The ledger side of a refund is the credits
 * repository's. Methods that lock take the transaction they lock in; the others may run in one.
 */
export function createModerationRepository(db: Db) {
  return {
    /** Locks an answer of a question by its attestation reference: the lock queues concurrent flags of one answer. */
    async lockAnswerByRef(questionId: string, attestationRef: string, tx: Db): Promise<Pick<AnswerRow, 'id' | 'credits' | 'removed' | 'attestation_ref'> | undefined> {
      return tx
        .selectFrom('answers')
        .select(['id', 'credits', 'removed', 'attestation_ref'])
        .where('question_id', '=', questionId)
        .where('attestation_ref', '=', attestationRef)
        .forUpdate()
        .executeTakeFirst();
    },

    /** An answer of a question by its attestation reference, unlocked (pinning needs no lock). */
    async findAnswerByRef(questionId: string, attestationRef: string, tx: Db = db): Promise<Pick<AnswerRow, 'id' | 'removed'> | undefined> {
      return tx.selectFrom('answers').select(['id', 'removed']).where('question_id', '=', questionId).where('attestation_ref', '=', attestationRef).executeTakeFirst();
    },

    /** Locks an answer by id, for removal after an upheld flag (after its question: the answer-recording lock order). */
    async lockAnswer(id: string, tx: Db): Promise<Pick<AnswerRow, 'id' | 'answer' | 'credits' | 'removed'>> {
      return tx.selectFrom('answers').select(['id', 'answer', 'credits', 'removed']).where('id', '=', id).forUpdate().executeTakeFirstOrThrow();
    },

    async setPinned(answerId: string, pinned: boolean, tx: Db = db): Promise<void> {
      await tx.updateTable('answers').set({ pinned }).where('id', '=', answerId).execute();
    },

    /** Takes an answer out of its question's results (answers.removed); the caller fixes the question's tally. */
    /** The answers a question still counts (not removed), in the order they were accepted: a stopping rule's replay. */
    async countedAnswers(questionId: string, tx: Db): Promise<Array<AnswerRow['answer']>> {
      const rows = await tx.selectFrom('answers').select('answer').where('question_id', '=', questionId).where('removed', '=', false).orderBy('seq').execute();
      return rows.map((r) => r.answer);
    },

    async markAnswerRemoved(answerId: string, tx: Db): Promise<void> {
      await tx.updateTable('answers').set({ removed: true }).where('id', '=', answerId).execute();
    },

    /** The open flag of an answer, if any (at most one: a partial unique index on answer_id where open). */
    async openFlagOf(answerId: string, tx: Db = db): Promise<Pick<FlagRow, 'id'> | undefined> {
      return tx.selectFrom('answer_flags').select('id').where('answer_id', '=', answerId).where('status', '=', 'open').executeTakeFirst();
    },

    /** Writes a flag; undefined when the answer already has an open one (the one-open-flag index, migration 0007). */
    async insertFlag(flag: Omit<Insertable<AnswerFlagsTable>, 'seq' | 'status' | 'decided_at'>, tx: Db = db): Promise<FlagRow | undefined> {
      return tx
        .insertInto('answer_flags')
        .values(flag)
        .onConflict((oc) => oc.column('answer_id').where('status', '=', OPEN).doNothing())
        .returningAll()
        .executeTakeFirst();
    },

    /** Locks a flag for its decision: concurrent decisions of one flag queue here and the later ones see it decided. */
    async lockFlag(id: string, tx: Db): Promise<FlagRow | undefined> {
      return tx.selectFrom('answer_flags').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    },

    async decideFlag(id: string, decision: FlagDecision, tx: Db): Promise<FlagRow> {
      return tx.updateTable('answer_flags').set(decision).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
    },

    /** Flags for review, oldest first. */
    async listFlags(filter: FlagFilter, tx: Db = db): Promise<FlagRow[]> {
      let q = tx.selectFrom('answer_flags').selectAll();
      if (filter.status) q = q.where('status', '=', filter.status);
      if (filter.questionId) q = q.where('question_id', '=', filter.questionId);
      return q.orderBy('seq').limit(filter.limit ?? 100).execute();
    },

    /** Writes a dispute; undefined when the question already has an open one (partial unique index on question_id where open). */
    async insertDispute(dispute: Omit<Insertable<DisputesTable>, 'seq' | 'status' | 'refund_credits'>, tx: Db = db): Promise<DisputeRow | undefined> {
      return tx
        .insertInto('disputes')
        .values(dispute)
        .onConflict((oc) => oc.column('question_id').where('status', '=', OPEN).doNothing())
        .returningAll()
        .executeTakeFirst();
    },

    /** Locks a dispute for its decision: concurrent decisions of one dispute queue here and the later ones see it decided. */
    async lockDispute(id: string, tx: Db): Promise<DisputeRow | undefined> {
      return tx.selectFrom('disputes').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    },

    async decideDispute(id: string, decision: DisputeDecision, tx: Db): Promise<DisputeRow> {
      return tx.updateTable('disputes').set(decision).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
    },

    /** The question's most recent dispute, whatever its status. */
    async latestDispute(questionId: string, tx: Db = db): Promise<DisputeRow | undefined> {
      return tx.selectFrom('disputes').selectAll().where('question_id', '=', questionId).orderBy('seq', 'desc').limit(1).executeTakeFirst();
    },

    /** Disputes for review, oldest first. */
    async listDisputes(filter: DisputeFilter, tx: Db = db): Promise<DisputeRow[]> {
      let q = tx.selectFrom('disputes').selectAll();
      if (filter.status) q = q.where('status', '=', filter.status);
      if (filter.accountId) q = q.where('account_id', '=', filter.accountId);
      return q.orderBy('seq').limit(filter.limit ?? 100).execute();
    },
  };
}
export type ModerationRepository = ReturnType<typeof createModerationRepository>;
