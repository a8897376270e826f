import { sql, type Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { compilable, rowsOf, withCommit, type Statement } from '../../db/one-round-trip.ts';
import type { AnswersTable } from '../../db/schema.ts';
import type { StatementRider } from '../../lib/statement-rider.ts';

/**
 * The columns a new answer is written with, and each one's SQL type: insertMany sends one array
 * per column (`unnest`), not one parameter per value. The other columns take their defaults.
 */
const NEW_ANSWER_COLUMNS = {
  id: 'text',
  question_id: 'text',
  head_id: 'text',
  source: 'text',
  tier: 'smallint',
  country: 'text',
  age_band: 'text',
  gender: 'text',
  grade: 'smallint',
  answer: 'jsonb',
  option_label: 'text',
  text: 'text',
  reason: 'text',
  credits: 'integer',
  attestation_ref: 'text',
  dwell_ms: 'integer',
  nonce: 'uuid',
  locale: 'text',
  interrupted: 'boolean',
  sentiment: 'real',
  answered_at: 'timestamptz',
} as const satisfies Partial<Record<keyof AnswersTable, string>>;
type NewAnswerColumn = keyof typeof NEW_ANSWER_COLUMNS;
const COLUMN_NAMES = Object.keys(NEW_ANSWER_COLUMNS) as NewAnswerColumn[];

/** A new answer row, every column given; `tags` is the answering profile's tags (none for a link answer). */
export type NewAnswer = { [K in NewAnswerColumn]-?: Exclude<Insertable<AnswersTable>[K], undefined> } & { tags: string[] };

/**
 * The batch's insert. One array per column, so the statement's text is the same whatever the
 * batch's size: prepared once (db/prepared-statements.ts) instead of once per size, and Kysely
 * compiles ~25 parameters instead of ~22 per answer (the per-value compiling was most of
 * Kysely's share of the answer path's CPU). Each row's tags are a slice of one flat array (a
 * text[] per row cannot be a column of unnest, whose arrays are one-dimensional). WITH
 * ORDINALITY and its ORDER BY keep the rows in the order given, so `seq` follows it.
 */
function insertStatement(answers: readonly NewAnswer[]) {
  const tags: string[] = [];
  const tagFrom: number[] = [];
  const tagTo: number[] = [];
  for (const a of answers) {
    tagFrom.push(tags.length + 1);
    tags.push(...a.tags);
    tagTo.push(tags.length);
  }
  const arrays = COLUMN_NAMES.map((column) => sql`${sql.val(answers.map((a) => a[column]))}::${sql.raw(NEW_ANSWER_COLUMNS[column])}[]`);
  const columns = sql.join(COLUMN_NAMES.map((c) => sql.id(c)));
  return sql`INSERT INTO answers (${columns}, tags)
    SELECT ${sql.join(COLUMN_NAMES.map((c) => sql.ref(`u.${c}`)))}, (${sql.val(tags)}::text[])[u.tag_from:u.tag_to]
    FROM unnest(${sql.join(arrays)}, ${sql.val(tagFrom)}::int[], ${sql.val(tagTo)}::int[]) WITH ORDINALITY AS u(${columns}, tag_from, tag_to, ord)
    ORDER BY u.ord`;
}

/**
 * SQL of the answers table: what the answer-recording service reads and writes under the
 * questions' row locks, a batch at a time, and the translation pass's reads and writes. Each
 * method is one statement, so the answer path's round trips (bench/: SQL per answer) are exactly
 * the calls its service makes.
 */
export function createAnswersRepository(db: Db) {
  return {
    /**
     * The answers recorded earlier with these (question, nonce) pairs (retried page loads), in one
     * statement: each pair looked up on its own by the unique index on (question_id, nonce),
     * whatever the table's statistics say. Planned freely, a young or embedded database's stale
     * statistics chose reads that grew with the table: the two lists matched separately read every
     * answer of the batch's questions and filtered the nonces; the pairs as a plain join read the
     * whole nonce index (every link answer ever recorded) for each batch. A LATERAL subquery with a
     * LIMIT is not flattened into a join, so it runs once per pair with both columns bound;
     * `nonce IS NOT NULL` proves the partial index's predicate. (The LIMIT changes nothing: the index is unique.)
     * A Statement, run with the batch's first reads in one round trip (db/one-round-trip.ts).
     */
    findByNonces(pairs: ReadonlyArray<{ questionId: string; nonce: string }>): Statement<{ question_id: string; nonce: string; attestation_ref: string }> {
      return compilable(
        sql<{ question_id: string; nonce: string; attestation_ref: string }>`
        SELECT a.question_id, a.nonce, a.attestation_ref
        FROM unnest(${pairs.map((p) => p.questionId)}::text[], ${pairs.map((p) => p.nonce)}::uuid[]) AS p(question_id, nonce)
        CROSS JOIN LATERAL (
          SELECT question_id, nonce, attestation_ref FROM answers
          WHERE question_id = p.question_id AND nonce = p.nonce AND nonce IS NOT NULL LIMIT 1
        ) a`,
        db,
      );
    },

    /**
     * Stores answers in one statement, in the order given (their `seq` follows it). Every row is stored or the statement fails: a second answer of a panel head (the
     * unique index on question_id, head_id where head_id is not null) or a nonce used twice is an
     * error, never a row left out, since the recorder checked both under the questions' locks
     * (a row the index refuses means the checks and the index disagree, and the batch must fail:
     * group commit then writes its answers one by one). `riders` (lib/statement-rider.ts: the
     * batch's counts and spends) are written in the same statement; with no answers to store
     * nothing runs and they stay not carried. `commit`: the statement is the transaction's last,
     * sent with its COMMIT (db/one-round-trip.ts withCommit).
     */
    async insertMany(answers: readonly NewAnswer[], tx: Db, riders: readonly StatementRider[] = [], options: { commit?: boolean } = {}): Promise<void> {
      if (answers.length === 0) return;
      const insert = insertStatement(answers);
      const ctes = riders.flatMap((rider, i) => rider.ctes(`rider${i}_`));
      // The riders are data-modifying CTEs of the INSERT: each runs once, whether or not it is read.
      const statement = compilable(ctes.length === 0 ? insert : sql`WITH ${sql.join(ctes)} ${insert}`, db);
      if (options.commit) await withCommit(tx, statement);
      else await rowsOf(tx, statement);
      for (const rider of riders) rider.carried = true;
    },

    /**
     * Written answers waiting for a translation, oldest first, at most `limit`: of questions live,
     * or closed after `closedAfter`, asked in another language than their account's; not removed,
     * not translated yet, tried fewer than `maxAttempts` times. `from` is the question's language,
     * `to` the account's.
     */
    async waitingForTranslation(closedAfter: Date, maxAttempts: number, limit: number, tx: Db = db) {
      return tx
        .selectFrom('questions as q')
        .innerJoin('accounts as acc', 'acc.id', 'q.account_id')
        .innerJoin('answers as a', 'a.question_id', 'q.id')
        .select(['a.id', 'a.question_id', 'a.text', 'a.reason', sql<string>`q.draft->>'language'`.as('from'), 'acc.language as to'])
        .where((eb) => eb.or([eb('q.status', '=', 'live'), eb('q.closed_at', '>', closedAfter)]))
        .where(sql<boolean>`split_part(lower(q.draft->>'language'), '-', 1) <> split_part(lower(acc.language), '-', 1)`)
        .where('a.translated_to', 'is', null)
        .where('a.removed', '=', false)
        .where((eb) => eb.or([eb('a.text', 'is not', null), eb('a.reason', 'is not', null)]))
        .where('a.translation_attempts', '<', maxAttempts)
        .orderBy('a.seq')
        .limit(limit)
        .execute();
    },

    /** Counts a failed translation attempt for each answer (tried again on later passes, up to the limit). */
    async countTranslationAttempt(answerIds: string[], tx: Db = db): Promise<void> {
      await tx.updateTable('answers').set({ translation_attempts: sql`translation_attempts + 1` }).where('id', 'in', answerIds).execute();
    },

    /** Stores an answer's translation, only if it is still waiting: another process may have translated it meanwhile. */
    async saveTranslation(answerId: string, translation: { text: string | null; reason: string | null; to: string }, tx: Db = db): Promise<void> {
      await tx
        .updateTable('answers')
        .set({ translated_text: translation.text, translated_reason: translation.reason, translated_to: translation.to })
        .where('id', '=', answerId)
        .where('translated_to', 'is', null)
        .execute();
    },
  };
}
export type AnswersRepository = ReturnType<typeof createAnswersRepository>;
/** An answer the translation pass takes, with the languages to translate it from and to. */
export type AnswerToTranslate = Awaited<ReturnType<AnswersRepository['waitingForTranslation']>>[number];
