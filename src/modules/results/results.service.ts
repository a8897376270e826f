import type { Insights } from '../insights/insights.schemas.ts';
import type { Selectable } from 'kysely';
import type { QuestionsTable } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { filterOf, type ResultQuery } from './filters.ts';
import { createResultBuilder, viewFor, type ResultBuilderOptions } from './result-builder.ts';
import type { ResultEntry } from './result-entry.ts';
import { createResultLoader, type ResultLoaderOptions } from './result-loader.ts';
import type { ResultsRepository } from './results.repository.ts';
import type { Answer, Result } from './results.schemas.ts';

export { RESULT_ANSWERS } from './result-view.ts';
export { versionOf, type ResultEntry } from './result-entry.ts';

/**
 * GET /v2/questions/{id}/result (and the result inside wait, public results): every field of the
 * spec's Result, partial while live (docs/results.md).
 *
 * Speed (docs/results.md "Caching and speed"): the question row is read on every call (it is small and
 * carries status and money); the answers are loaded with one query the first time a question
 * is asked for, and kept in memory with the unfiltered aggregates in an LRU bounded by size,
 * tagged with the question's version, (updated_at, answered). Recording an answer changes both:
 * the next read fetches only the answers recorded since (seq after the last one read) and
 * aggregates again in memory; a removed answer, a moved pin, a new translation (or a count that does not add up)
 * reloads everything. Changes that leave the version alone (a pin) publish "question changed"
 * on the notifier (across processes on a PostgreSQL server), which marks the entry to be checked
 * the same way on its next read; invalidate(id) drops it. Filtered views are computed from the
 * cached rows (a few per question are kept). Answer flags are not cached: they are looked up per
 * request for the answers shown (moderation's answer_flags).
 *
 * The pieces: result-loader.ts (the cache, loads, refreshes, loads in flight, "question changed"),
 * result-entry.ts (what is cached per question), result-builder.ts (an entry and a filter turned
 * into a Result, memoized); this file reads the question row, the flags and the summary.
 */
type Row = Selectable<QuestionsTable>;

/**
 * The question read a result starts from: questions.repository's findRow, handed in by the
 * container (results does not import the questions module, which imports results).
 */
export interface QuestionRowReader {
  findRow(accountId: string, id: string): Promise<Row | undefined>;
}

export type AnswerFlagLookup = (questionId: string, attestationRefs: readonly string[]) => Promise<Map<string, NonNullable<Answer['flag']>>>;

export interface ResultServiceOptions extends ResultLoaderOptions, ResultBuilderOptions {
  /** Each shown answer's latest flag (Answer.flag); default: the latest row of answer_flags (results.repository.ts latestFlags). */
  answerFlags?: AnswerFlagLookup;
  /** The latest summary of written answers (Result.insights); one primary-key read. */
  insights?: { latest(questionId: string): Promise<Insights | null> };
}

export function createResultService(deps: { repo: ResultsRepository; questions: QuestionRowReader } & ResultServiceOptions) {
  const { repo } = deps;
  const answerFlags: AnswerFlagLookup = deps.answerFlags ?? ((id, refs) => repo.latestFlags(id, refs));
  const loader = createResultLoader(deps);
  const builder = createResultBuilder(deps);

  async function withFlags(questionId: string, answers: Answer[]): Promise<Answer[]> {
    if (answers.length === 0) return answers;
    const flags = await answerFlags(questionId, answers.map((a) => a.attestationRef));
    return answers.map((a) => ({ ...a, flag: flags.get(a.attestationRef) ?? null }));
  }

  async function questionRow(accountId: string, id: string): Promise<Row> {
    const row = await deps.questions.findRow(accountId, id);
    if (!row) throw notFound('No such question on this account.');
    return row;
  }

  return {
    /** The result of a question row (any account: callers check ownership). */
    async build(row: Row, query: ResultQuery = {}): Promise<Result> {
      const entry = await loader.entryFor(row);
      const filter = filterOf(query, entry.ctx.type, entry.ctx.labels);
      const shown = viewFor(entry, filter);
      // The flags of the answers shown and the latest summary: two reads, side by side.
      const [answers, insights] = await Promise.all([withFlags(row.id, shown.view.answers), deps.insights ? deps.insights.latest(row.id) : undefined]);
      return builder.resultOf(row, entry, filter, shown, answers, insights);
    },

    async forAccount(accountId: string, id: string, query: ResultQuery = {}): Promise<Result> {
      return this.build(await questionRow(accountId, id), query);
    },

    /** The cached answers of one of the account's questions (the answers list reads them). */
    async entry(accountId: string, id: string): Promise<{ row: Row; entry: ResultEntry }> {
      const row = await questionRow(accountId, id);
      return { row, entry: await loader.entryFor(row) };
    },

    /** Drops a question's cached answers (after a change that does not move updated_at). */
    invalidate: loader.invalidate,

    /** Where an answer sits among its question's, removed ones included (the answers list's cursor). */
    answerPosition: (questionId: string, attestationRef: string) => repo.answerPosition(questionId, attestationRef),

    withFlags,

    /** Cache counters, for tests and operators. */
    cacheStats: loader.cacheStats,
  };
}
export type ResultService = ReturnType<typeof createResultService>;
