import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Statement } from '../../db/one-round-trip.ts';
import type { QuestionsTable } from '../../db/schema.ts';
import type { StatementRider } from '../../lib/statement-rider.ts';
import { CLAIM_OUTCOME, claimCtes, claimOutcome, type KeyClaim, type KeyClaimOutcome } from './idempotency.repository.ts';

/** A question with who asked it: the key's name, or the person's name and address (askedBy), and the account's kind (teamId). */
export type QuestionRow = Selectable<QuestionsTable> & { key_name: string | null; person_name: string | null; person_email: string | null; account_kind: string };

export interface ListFilter {
  accountId: string;
  status?: string;
  since?: Date;
  projectId?: string;
  label?: string;
  externalRef?: string;
  /** Only the follow-ups of this question. */
  parentId?: string;
  archived: 'exclude' | 'only' | 'include';
  bookmarked?: boolean;
  /** Only questions asked with this key. */
  keyId?: string | null;
  /** Only questions this person asked (through a portal session). */
  personId?: string;
  beforeSeq?: number;
  limit: number;
}

/** What a batch of answers moved on one of its questions (answer-batch.ts). */
export interface AnswerCounts {
  id: string;
  answered: number;
  creditsSpent: number;
  tally: Record<string, number>;
  settlement: object | null;
}

/** One array per column (`unnest`): the same text for any number of questions (answers.repository.ts insertStatement says why). */
function answerCountsUpdate(rows: readonly AnswerCounts[], at: Date) {
  return sql`UPDATE questions AS q SET answered = v.answered, credits_spent = v.spent, tally = v.tally, settlement = coalesce(v.settlement, q.settlement), updated_at = ${at}
    FROM unnest(${sql.val(rows.map((r) => r.id))}::text[], ${sql.val(rows.map((r) => r.answered))}::int[], ${sql.val(rows.map((r) => r.creditsSpent))}::bigint[],
      ${sql.val(rows.map((r) => JSON.stringify(r.tally)))}::jsonb[], ${sql.val(rows.map((r) => (r.settlement ? JSON.stringify(r.settlement) : null)))}::jsonb[])
      AS v(id, answered, spent, tally, settlement)
    WHERE q.id = v.id`;
}

const OWNER_COLUMNS = ['k.name as key_name', 'p.name as person_name', 'p.email as person_email', 'a.kind as account_kind'] as const;

const withOwner = (db: Db) =>
  db
    .selectFrom('questions as q')
    .innerJoin('accounts as a', 'a.id', 'q.account_id')
    .leftJoin('api_keys as k', 'k.id', 'q.key_id')
    .leftJoin('people as p', 'p.id', 'q.person_id')
    .selectAll('q')
    .select(OWNER_COLUMNS);

/** The labels column is text[]: the array goes over as one parameter cast to it (an empty one too). */
const withLabels = (row: Insertable<QuestionsTable>) => (row.labels === undefined ? row : { ...row, labels: sql<string[]>`${sql.val(row.labels)}::text[]` });

/** The batch's question rows, locked (lockForAnswers); `ids` not empty. */
function lockForAnswersStatement(db: Db, ids: readonly string[]): Statement<Selectable<QuestionsTable>> {
  const asked = sql.val([...ids]);
  return db
    .selectFrom('questions')
    .selectAll()
    .where(sql<boolean>`id = any(${asked}::text[] || ARRAY(SELECT variant_group FROM questions WHERE id = any(${asked}::text[]) AND variant_group IS NOT NULL))`)
    .orderBy('id')
    .forUpdate();
}

export function createQuestionsRepository(db: Db) {
  return {
    /** Inserts rows in one statement (the follow-ups an ask creates with its question). */
    async insertMany(rows: Insertable<QuestionsTable>[], tx: Db): Promise<void> {
      if (rows.length) await tx.insertInto('questions').values(rows.map(withLabels)).execute();
    },

    /**
     * Inserts a question and returns it as `find` would, in one statement (the ask's response is
     * built from it). With `claim`, the same statement first claims the request's Idempotency-Key
     * (idempotency.repository.ts `claimCtes`) and inserts the question only when the key was
     * claimed: `row` is null otherwise, and `claim` says why (docs/asking.md "Idempotency").
     */
    async insertReturning(row: Insertable<QuestionsTable>, tx: Db, claim?: KeyClaim): Promise<{ row: QuestionRow | null; claim: KeyClaimOutcome }> {
      const columns = (Object.keys(row) as Array<keyof typeof row>).filter((column) => row[column] !== undefined);
      const values = columns.map((column) => (column === 'labels' ? sql`${sql.val(row.labels)}::text[]` : sql.val(row[column])));
      // INSERT … SELECT … FROM key_claim: no row there, no question (the SELECT's parameters take
      // the columns' types). The owner columns are OWNER_COLUMNS, as `withOwner` joins them.
      const insert = sql`q AS (INSERT INTO questions (${sql.join(columns.map((column) => sql.id(column)))}) SELECT ${sql.join(values)} ${claim ? sql`FROM key_claim` : sql``} RETURNING *)`;
      const result = await sql<QuestionRow & { key_locked: boolean | null; key_claimed: boolean }>`
        WITH ${sql.join(claim ? [...claimCtes(claim), insert] : [insert])}
        SELECT ${claim ? CLAIM_OUTCOME : sql`true AS key_locked, true AS key_claimed`}, q.*, k.name AS key_name, p.name AS person_name, p.email AS person_email, a.kind AS account_kind
        FROM (SELECT) AS one LEFT JOIN q ON true
        LEFT JOIN accounts a ON a.id = q.account_id LEFT JOIN api_keys k ON k.id = q.key_id LEFT JOIN people p ON p.id = q.person_id`.execute(tx);
      const { key_locked, key_claimed, ...inserted } = result.rows[0];
      return { row: inserted.id === null ? null : inserted, claim: claimOutcome({ key_locked, key_claimed }) };
    },

    /** One question of one account (another account's id finds nothing: R5.4). */
    async find(accountId: string, id: string, tx: Db = db): Promise<QuestionRow | undefined> {
      return withOwner(tx).where('q.account_id', '=', accountId).where('q.id', '=', id).executeTakeFirst() as Promise<QuestionRow | undefined>;
    },

    async findAny(id: string, tx: Db = db): Promise<QuestionRow | undefined> {
      return withOwner(tx).where('q.id', '=', id).executeTakeFirst() as Promise<QuestionRow | undefined>;
    },

    /** One question of one account, the row alone (no owner columns): what a result is built from. */
    async findRow(accountId: string, id: string, tx: Db = db): Promise<Selectable<QuestionsTable> | undefined> {
      return tx.selectFrom('questions').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    },

    /** Status and answers so far: what a waiter checks (any account: the waiter's first read checked it). */
    async progress(id: string, tx: Db = db): Promise<Pick<Selectable<QuestionsTable>, 'status' | 'answered'> | undefined> {
      return tx.selectFrom('questions').select(['status', 'answered']).where('id', '=', id).executeTakeFirst();
    },

    /** `progress` of many questions in one statement (the waiters' safety re-check); ids not found are left out. */
    async progressMany(ids: readonly string[], tx: Db = db): Promise<Array<Pick<Selectable<QuestionsTable>, 'id' | 'status' | 'answered'>>> {
      if (ids.length === 0) return [];
      return tx.selectFrom('questions').select(['id', 'status', 'answered']).where(sql<boolean>`id = any(${sql.val([...ids])}::text[])`).execute();
    },

    /** Status and answers so far of one question of one account (another account's id finds nothing). */
    async progressOf(accountId: string, id: string, tx: Db = db): Promise<Pick<Selectable<QuestionsTable>, 'status' | 'answered'> | undefined> {
      return tx.selectFrom('questions').select(['status', 'answered']).where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    },

    /** Locks the question row for a transition or an answer; everything that changes it goes through here. */
    async lock(id: string, tx: Db): Promise<Selectable<QuestionsTable> | undefined> {
      return tx.selectFrom('questions').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    },

    /**
     * Locks the question rows a batch of answers writes to, and the first question of each of
     * their variant groups, in id order (so two batches of answers locking overlapping sets never
     * wait on each other in a cycle): with ORDER BY, PostgreSQL locks the rows as they come out of
     * the sort. The group's first question is the lock of the rule "one answer per head in a
     * variant group" (answer-batch.ts): the variants are different rows, so without it two
     * processes could each accept one head's answer to another variant at the same moment.
     * (`variant_group` is written once, when the variant is asked.) Returns every row locked.
     * The ids are one array, the asked ids and their groups' first questions, so the rows are found
     * through the primary key: `id = any(…) OR id IN (SELECT …)` cannot use an index, and read every
     * question of the database for every batch (a full bench run's answers went 3–4× slower after
     * the asks rows had added ~3,000 questions; test/integration/hot-path-plans.test.ts checks it).
     * A Statement, run with the batch's first reads in one round trip (db/one-round-trip.ts); `ids` not empty.
     */
    lockForAnswers(ids: readonly string[]): Statement<Selectable<QuestionsTable>> {
      return lockForAnswersStatement(db, ids);
    },

    /**
     * The counts a batch of answers moved, one statement for all its questions; `settlement` is
     * written only where the batch met a stopping rule (it is set once: answer-batch.ts). The
     * caller holds their row locks (lockForAnswers).
     */
    async setAnswerCounts(rows: readonly AnswerCounts[], at: Date, tx: Db): Promise<void> {
      if (rows.length === 0) return;
      await answerCountsUpdate(rows, at).execute(tx);
    },

    /**
     * setAnswerCounts as a rider (lib/statement-rider.ts) of the batch's insert: the question rows
     * it updates are the ones the batch already holds locked, so it takes no lock of its own.
     */
    answerCountsRider(rows: readonly AnswerCounts[], at: Date): StatementRider {
      return { carried: false, ctes: (prefix) => (rows.length === 0 ? [] : [sql`${sql.id(`${prefix}counts`)} AS (${answerCountsUpdate(rows, at)})`]) };
    },

    async update(id: string, values: Updateable<QuestionsTable>, tx: Db): Promise<void> {
      await tx.updateTable('questions').set(values).where('id', '=', id).execute();
    },

    /**
     * Updates a question and returns it as `find` would, in one statement (a close builds its
     * event's Question from it: no read after the write on the answer path).
     */
    async updateReturning(id: string, values: Updateable<QuestionsTable>, tx: Db): Promise<QuestionRow> {
      const updated = await tx
        .with('q', (qb) => qb.updateTable('questions').set(values).where('id', '=', id).returningAll())
        .selectFrom('q')
        .innerJoin('accounts as a', 'a.id', 'q.account_id')
        .leftJoin('api_keys as k', 'k.id', 'q.key_id')
        .leftJoin('people as p', 'p.id', 'q.person_id')
        .selectAll('q')
        .select(OWNER_COLUMNS)
        .executeTakeFirstOrThrow();
      return updated as QuestionRow;
    },

    /** Where a question sits in its account's list: the position a page cursor names (lib/cursor.ts). */
    async listPosition(accountId: string, id: string): Promise<number | undefined> {
      const row = await db.selectFrom('questions').select('seq').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
      return row?.seq;
    },

    async list(filter: ListFilter): Promise<QuestionRow[]> {
      let q = withOwner(db).where('q.account_id', '=', filter.accountId);
      if (filter.status) q = q.where('q.status', '=', filter.status);
      if (filter.since) q = q.where('q.created_at', '>=', filter.since);
      if (filter.projectId) q = q.where('q.project_id', '=', filter.projectId);
      if (filter.label) q = q.where(sql<boolean>`q.labels @> ARRAY[${filter.label}]::text[]`);
      if (filter.externalRef) q = q.where('q.external_ref', '=', filter.externalRef);
      if (filter.parentId) q = q.where('q.parent_id', '=', filter.parentId);
      if (filter.archived === 'exclude') q = q.where('q.archived', '=', false);
      if (filter.archived === 'only') q = q.where('q.archived', '=', true);
      if (filter.bookmarked !== undefined) q = q.where('q.bookmarked', '=', filter.bookmarked);
      if (filter.keyId !== undefined) q = filter.keyId === null ? q.where('q.key_id', 'is', null) : q.where('q.key_id', '=', filter.keyId);
      if (filter.personId !== undefined) q = q.where('q.person_id', '=', filter.personId);
      if (filter.beforeSeq !== undefined) q = q.where('q.seq', '<', filter.beforeSeq);
      return q.orderBy('q.seq', 'desc').limit(filter.limit).execute() as Promise<QuestionRow[]>;
    },

    async labels(accountId: string): Promise<Array<{ label: string; count: number }>> {
      const rows = await sql<{ label: string; count: number }>`
        SELECT label, count(*)::int AS count
        FROM questions, unnest(labels) AS label
        WHERE account_id = ${accountId}
        GROUP BY label
        ORDER BY count DESC, label ASC`.execute(db);
      return rows.rows;
    },

    /** Questions whose time has come: scheduled ones to open, live ones past their window. */
    async due(now: Date, limit: number): Promise<Array<{ id: string; status: string }>> {
      return db
        .selectFrom('questions')
        .select(['id', 'status'])
        .where((eb) => eb.or([eb.and([eb('status', '=', 'scheduled'), eb('scheduled_for', '<=', now)]), eb.and([eb('status', '=', 'live'), eb('closes_at', '<=', now)])]))
        .orderBy('id')
        .limit(limit)
        .execute();
    },

    async children(parentId: string, tx: Db): Promise<Array<Selectable<QuestionsTable>>> {
      return tx.selectFrom('questions').selectAll().where('parent_id', '=', parentId).orderBy('seq').forUpdate().execute();
    },

    /** The account's lock on private asks, held to the end of the transaction (the ask counts today's free one under it). */
    async lockPrivateAsks(accountId: string, tx: Db): Promise<void> {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`private:${accountId}`}))`.execute(tx);
    },

    async countPrivateSince(accountId: string, since: Date, tx: Db = db): Promise<{ count: number; first: Date | null }> {
      const row = await tx
        .selectFrom('questions')
        .select([sql<number>`count(*)::int`.as('count'), sql<Date | null>`min(created_at)`.as('first')])
        .where('account_id', '=', accountId)
        .where('private', '=', true)
        .where('created_at', '>=', since)
        .executeTakeFirstOrThrow();
      return row;
    },
  };
}
export type QuestionsRepository = ReturnType<typeof createQuestionsRepository>;
