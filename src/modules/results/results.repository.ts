import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { QuestionsTable } from '../../db/schema.ts';
import type { Point } from './clicks.ts';
import { answerSentiment } from '../text/sentiment.ts';
import type { Answer } from './results.schemas.ts';

/**
 * The answers of one question as the results module holds them in memory: one query, only the
 * columns a result needs, newest first; removed answers are read (to count them) but not kept. Everything else (distribution,
 * breakdowns, filters, pages of answers) is computed from these rows.
 */
export interface AnswerRow {
  seq: number;
  /** A panel head's answer carries a profile; a link answer (no head) appears in no breakdown. */
  profiled: boolean;
  /** From a simulated head or the simulator (verificationLine says so). */
  simulated: boolean;
  tier: number;
  /** The member's grade when the question asks an interest audience; null otherwise. */
  grade: number | null;
  country: string | null;
  ageBand: string | null;
  gender: string | null;
  tags: string[];
  /** The answer object (docs/answer-link.md): option, options, order, pair, taps. */
  option: number | undefined;
  options: number[] | undefined;
  order: number[] | undefined;
  pair: number[] | undefined;
  taps: Point[] | undefined;
  optionLabel: string | null;
  text: string | null;
  reason: string | null;
  /** Lower-cased text and reason and their translations, for the `q` filter. */
  search: string[];
  /** In the account's language (`translatedTo`) once the background pass translated them. */
  translatedText: string | null;
  translatedReason: string | null;
  translatedTo: string | null;
  /** Sentiment score −1 to 1 (text/sentiment.ts); null without one. */
  sentiment: number | null;
  dwellMs: number | null;
  pinned: boolean;
  attestationRef: string;
  answeredAt: string;
}

interface StoredAnswer {
  option?: number;
  options?: number[];
  order?: number[];
  pair?: number[];
  taps?: Point[];
}

export interface LoadedAnswers {
  /** Accepted answers not removed, newest first. */
  rows: AnswerRow[];
  /** Every answer row read, removed ones included (questions.answered counts them too). */
  read: number;
  /** Highest seq read (0 when none): the next incremental read starts after it. */
  maxSeq: number;
}

/**
 * An answer's flag as a Result shows it (docs/moderation.md): the latest flag of the answer, for
 * the result builder. Answers removed after an upheld flag are left out of results by the builder
 * itself (answers.removed).
 */
export type AnswerFlag = NonNullable<Answer['flag']>;

/**
 * What a result request reads beside the cached answers, in one statement (results.service.ts
 * forAccount): the question row of the account, the latest flags of the answers it expects to
 * show, and a fingerprint of the latest summary of written answers.
 */
export interface ResultState {
  row: ResultQuestion;
  /** The latest flag of each of the answers asked about that has one. */
  flags: Map<string, AnswerFlag>;
  /** md5 of the stored summary (insights.payload); null when there is none. */
  insightsStamp: string | null;
}

/**
 * The columns of a question a result is made from (status, money, the draft's language and
 * options, the version): resultState reads only these; every other reader of results passes a
 * whole row, which has them too. Fewer columns make the per-request statement cheaper to decode.
 */
export const RESULT_QUESTION_COLUMNS = [
  'id', 'status', 'type', 'draft', 'n', 'tier', 'credits_spent', 'credits_refunded', 'answered', 'updated_at', 'audience_id', 'stimulus_width', 'stimulus_height', 'settlement',
] as const;
export type ResultQuestion = Pick<Selectable<QuestionsTable>, (typeof RESULT_QUESTION_COLUMNS)[number]>;
/** `q.id, q.status, …`: constant identifiers, so a raw fragment is safe. */
const QUESTION_COLUMNS = sql.raw(RESULT_QUESTION_COLUMNS.map((column) => `q.${column}`).join(', '));

/** A row of resultState: the question's columns, one flag's (or nulls) and the summary's fingerprint. */
type StateRow = ResultQuestion & {
  flag_ref: string | null;
  flag_reason: string | null;
  flag_status: string | null;
  flag_refund_credits: number | null;
  flag_created_at: Date | null;
  flag_decided_at: Date | null;
  insights_stamp: string | null;
};

function flagOf(row: { reason: string; status: string; refund_credits: number; created_at: Date; decided_at: Date | null }): AnswerFlag {
  return {
    reason: row.reason as AnswerFlag['reason'],
    status: row.status as AnswerFlag['status'],
    refundCredits: row.refund_credits,
    createdAt: row.created_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
  };
}

export function createResultsRepository(db: Db) {
  return {
    /**
     * The answers of a question, newest first; with `afterSeq`, only those recorded after it.
     * Answers of one question are recorded one at a time (the recorder locks the question row),
     * so seq order is commit order and "after the highest seq seen" misses nothing.
     */
    async answersOf(questionId: string, afterSeq = 0, language = 'en'): Promise<LoadedAnswers> {
      const found = await db
        .selectFrom('answers as a')
        .leftJoin('heads as h', 'h.id', 'a.head_id')
        .select([
          'a.seq', 'a.head_id', 'a.source', 'a.tier', 'a.grade', 'a.country', 'a.age_band', 'a.gender', 'a.tags', 'a.answer',
          'a.option_label', 'a.text', 'a.reason', 'a.dwell_ms', 'a.pinned', 'a.attestation_ref', 'a.answered_at', 'a.removed', 'a.sentiment', 'a.translated_text', 'a.translated_reason', 'a.translated_to', 'h.simulated',
        ])
        .where('a.question_id', '=', questionId)
        .where('a.seq', '>', afterSeq)
        .orderBy('a.seq', 'desc')
        .execute();
      const maxSeq = found.length ? found[0].seq : afterSeq;
      const rows = found.filter((r) => !r.removed).map((r): AnswerRow => {
        const answer = (r.answer ?? {}) as StoredAnswer;
        const search: string[] = [];
        for (const value of [r.text, r.reason, r.translated_text, r.translated_reason]) if (value) search.push(value.toLowerCase());
        return {
          seq: r.seq,
          profiled: r.head_id !== null,
          simulated: r.source === 'simulator' || r.simulated === true,
          tier: r.tier,
          grade: r.grade,
          country: r.country,
          ageBand: r.age_band,
          gender: r.gender,
          tags: r.tags ?? [],
          option: answer.option,
          options: answer.options,
          order: answer.order,
          pair: answer.pair,
          taps: answer.taps,
          optionLabel: r.option_label,
          text: r.text,
          reason: r.reason,
          search,
          translatedText: r.translated_text,
          translatedReason: r.translated_reason,
          translatedTo: r.translated_to,
          // Answers recorded before scores were stored (migration 0008) are scored here, once.
          sentiment: r.sentiment ?? (r.text || r.reason ? answerSentiment(language, r.text, r.reason) : null),
          dwellMs: r.dwell_ms,
          pinned: r.pinned,
          attestationRef: r.attestation_ref,
          answeredAt: r.answered_at.toISOString(),
        };
      });
      return { rows, read: found.length, maxSeq };
    },

    /** Where an answer sits among its question's, removed or not: the position an answers-page cursor names. */
    async answerPosition(questionId: string, attestationRef: string): Promise<number | undefined> {
      const row = await db.selectFrom('answers').select('seq').where('question_id', '=', questionId).where('attestation_ref', '=', attestationRef).executeTakeFirst();
      return row?.seq;
    },

    /**
     * What can change in answers already read: how many were removed after review, how many of
     * the others are translated, and the seqs of the pinned ones (ascending).
     */
    async changesOf(questionId: string): Promise<{ removed: number; translated: number; pinned: number[] }> {
      const row = await db
        .selectFrom('answers')
        .select([
          sql<number>`count(*) FILTER (WHERE removed)`.as('removed'),
          sql<number>`count(*) FILTER (WHERE translated_to IS NOT NULL AND NOT removed)`.as('translated'),
          sql<number[] | null>`array_agg(seq ORDER BY seq) FILTER (WHERE pinned AND NOT removed)`.as('pinned'),
        ])
        .where('question_id', '=', questionId)
        .executeTakeFirstOrThrow();
      return { removed: Number(row.removed), translated: Number(row.translated), pinned: (row.pinned ?? []).map(Number) };
    },

    /** The latest flag of each of these answers of one question; answers never flagged are absent. */
    async latestFlags(questionId: string, attestationRefs: readonly string[], tx: Db = db): Promise<Map<string, AnswerFlag>> {
      const flags = new Map<string, AnswerFlag>();
      if (attestationRefs.length === 0) return flags;
      const rows = await tx
        .selectFrom('answer_flags')
        .select(['attestation_ref', 'reason', 'status', 'refund_credits', 'created_at', 'decided_at'])
        .where('question_id', '=', questionId)
        .where('attestation_ref', 'in', [...attestationRefs])
        .orderBy('seq')
        .execute();
      // Oldest first, so the latest flag of an answer wins.
      for (const row of rows) flags.set(row.attestation_ref, flagOf(row));
      return flags;
    },

    /**
     * One statement for what a cached result needs on every request: the question of the account
     * (its RESULT_QUESTION_COLUMNS; undefined: not this account's, or no such question), the latest flags of the
     * answers `attestationRefs` (the ones the caller expects to show) and the fingerprint of the
     * latest summary. All three come from one snapshot. The flags join adds a row per flag found,
     * oldest first, so the latest flag of an answer wins, as in latestFlags; most results have none.
     */
    async resultState(accountId: string, questionId: string, attestationRefs: readonly string[]): Promise<ResultState | undefined> {
      // Written as one SQL text rather than with the query builder: it runs on every result
      // request, and building the lateral join took longer than the embedded database ran it.
      const { rows } = await sql<StateRow>`
        SELECT ${QUESTION_COLUMNS},
          f.attestation_ref AS flag_ref, f.reason AS flag_reason, f.status AS flag_status, f.refund_credits AS flag_refund_credits,
          f.created_at AS flag_created_at, f.decided_at AS flag_decided_at,
          (SELECT md5(i.payload::text) FROM insights i WHERE i.question_id = q.id) AS insights_stamp
        FROM questions q
        LEFT JOIN LATERAL (
          SELECT seq, attestation_ref, reason, status, refund_credits, created_at, decided_at FROM answer_flags
          WHERE question_id = q.id AND attestation_ref = ANY(${[...attestationRefs]}::text[])
        ) f ON true
        WHERE q.id = ${questionId} AND q.account_id = ${accountId}
        ORDER BY f.seq`.execute(db);
      if (rows.length === 0) return undefined;
      const flags = new Map<string, AnswerFlag>();
      for (const r of rows) {
        if (r.flag_ref === null || r.flag_reason === null || r.flag_status === null || r.flag_refund_credits === null || r.flag_created_at === null) continue;
        flags.set(r.flag_ref, flagOf({ reason: r.flag_reason, status: r.flag_status, refund_credits: r.flag_refund_credits, created_at: r.flag_created_at, decided_at: r.flag_decided_at }));
      }
      const {
        flag_ref: _ref, flag_reason: _reason, flag_status: _status, flag_refund_credits: _refund, flag_created_at: _created, flag_decided_at: _decided,
        insights_stamp: insightsStamp, ...row
      } = rows[0];
      return { row, flags, insightsStamp };
    },
  };
}
export type ResultsRepository = ReturnType<typeof createResultsRepository>;
