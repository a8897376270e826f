import type { Insights } from '../insights/insights.schemas.ts';
import type { Selectable } from 'kysely';
import type { QuestionsTable } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { filterOf, type ResultQuery } from './filters.ts';
import { WeightedLru } from './result-cache.ts';
import { createResultBuilder, keptView, viewFor, type ResultBuilderOptions } from './result-builder.ts';
import type { ResultEntry } from './result-entry.ts';
import { createResultLoader, type ResultLoaderOptions } from './result-loader.ts';
import type { AnswerFlag, ResultQuestion, ResultsRepository } from './results.repository.ts';
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
 * cached rows (a few per question are kept). Answer flags are not cached and the summary is
 * checked every time: forAccount reads the flags of the answers shown and the summary's
 * fingerprint in the same statement as the question row, and reads the summary itself only when
 * its fingerprint moved.
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

export interface ResultServiceOptions extends ResultLoaderOptions, ResultBuilderOptions {
  /** The latest summary of written answers (Result.insights); one primary-key read. */
  insights?: { latest(questionId: string): Promise<Insights | null> };
  /**
   * What lets forAccount answer again without the database: this process's finished writes
   * (db/write-count.ts) and whether its notifier hears every other writer's changes. Without it,
   * every call reads.
   */
  freshness?: { writes(): number; hearsEveryChange(): boolean };
}

/**
 * Results forAccount keeps to answer again while nothing moved. A Result of 5,000 answers with
 * its prepared bytes (89 KB, and its compressed forms once asked for) holds ~0.5 MB, so 128 of
 * them stay within what the answers' own LRU may hold (64 MB); past that, the least recently
 * read goes and is read again with one statement when asked for.
 */
const KEPT_RESULTS = 128;

/**
 * What forAccount read beside the question row, in the same statement (results.repository.ts
 * resultState): the latest flags of the answers it expected to show, and the summary's fingerprint.
 */
interface ReadAlong {
  refs: ReadonlySet<string>;
  flags: Map<string, AnswerFlag>;
  insightsStamp: string | null;
}

const NO_FLAGS: ReadonlyMap<string, AnswerFlag> = new Map();

export function createResultService(deps: { repo: ResultsRepository; questions: QuestionRowReader } & ResultServiceOptions) {
  const { repo } = deps;
  const loader = createResultLoader(deps);
  const builder = createResultBuilder(deps);
  /**
   * The summary last read per question, by the fingerprint read with the row: a summary is read
   * again only when its fingerprint moves. The summary is read after the fingerprint, so it is
   * never older than the fingerprint says; if it changed in between, the next request's
   * fingerprint differs from the kept one and reads it again.
   */
  const summaries = new WeightedLru<string, { stamp: string; insights: Insights | null }>(Number.POSITIVE_INFINITY, deps.cacheEntries ?? 1000);

  /**
   * forAccount's answers, kept while nothing may have changed them (docs/performance.md "Caches
   * that skip the database"): a Result is kept with the stamp it was read under (this process's
   * finished writes plus the question changes it heard from elsewhere, both only ever growing),
   * and given again only while the stamp is the same and the notifier hears every change. Any
   * write of this process, and any change announced from another (the database's own NOTIFY,
   * migration 0022; on the embedded database everything another program does through the socket),
   * moves the stamp: coarse, so a busy question's readers read as before, but a result read again
   * and again while nothing happens costs no statement. A read that saw the stamp move while it
   * ran is not kept.
   */
  const kept = new WeightedLru<string, { stamp: number; result: Result }>(Number.POSITIVE_INFINITY, KEPT_RESULTS);
  let heard = 0;
  deps.notifier?.subscribe(() => void (heard += 1));
  const stampNow = () => (deps.freshness ? deps.freshness.writes() + heard : -1);
  let keptHits = 0;

  async function latestFlags(questionId: string, refs: readonly string[]): Promise<ReadonlyMap<string, AnswerFlag>> {
    return refs.length === 0 ? NO_FLAGS : repo.latestFlags(questionId, refs);
  }

  async function withFlags(questionId: string, answers: Answer[]): Promise<Answer[]> {
    if (answers.length === 0) return answers;
    const flags = await latestFlags(questionId, answers.map((a) => a.attestationRef));
    return answers.map((a) => ({ ...a, flag: flags.get(a.attestationRef) ?? null }));
  }

  /** The summary whose fingerprint the row's statement read: kept, none (null), or read now. */
  async function summaryFor(questionId: string, stamp: string | null): Promise<Insights | null> {
    if (stamp === null) return null;
    const kept = summaries.get(questionId);
    if (kept?.stamp === stamp) return kept.insights;
    const insights = await deps.insights!.latest(questionId);
    summaries.set(questionId, { stamp, insights }, 1);
    return insights;
  }

  /**
   * The answers a read of this question and filter will most likely show: those of the cached
   * entry's view, if it has that view already (nothing is computed for a guess; the caller's
   * ownership is not checked yet). Empty when there is no guess.
   */
  function expectedRefs(id: string, query: ResultQuery): string[] {
    const cached = loader.peek(id);
    if (!cached) return [];
    try {
      const shown = keptView(cached, filterOf(query, cached.ctx.type, cached.ctx.labels));
      return shown ? shown.view.answers.map((a) => a.attestationRef) : [];
    } catch {
      return []; // a filter this question refuses: the read itself says so, after the ownership check
    }
  }

  /** The result of a question row; `along`: what was read with the row (forAccount). */
  async function build(row: ResultQuestion, query: ResultQuery = {}, along?: ReadAlong): Promise<Result> {
    const entry = await loader.entryFor(row);
    const filter = filterOf(query, entry.ctx.type, entry.ctx.labels);
    const shown = viewFor(entry, filter);
    const refs = shown.view.answers.map((a) => a.attestationRef);
    // The flags read with the row serve when they cover every answer shown (the usual case: the
    // entry did not change in between); otherwise one more read, for the answers shown.
    const flags = along && refs.every((ref) => along.refs.has(ref)) ? along.flags : latestFlags(row.id, refs);
    const insights = !deps.insights ? undefined : along ? summaryFor(row.id, along.insightsStamp) : deps.insights.latest(row.id);
    const [shownFlags, summary] = await Promise.all([flags, insights]);
    return builder.resultOf(row, entry, filter, shown, shownFlags, summary, along ? `md5:${along.insightsStamp}` : undefined);
  }

  async function questionRow(accountId: string, id: string): Promise<Row> {
    const row = await deps.questions.findRow(accountId, id);
    if (!row) throw notFound('No such question on this account.');
    return row;
  }

  return {
    /** The result of a question row (any account: callers check ownership). */
    build: (row: ResultQuestion, query: ResultQuery = {}): Promise<Result> => build(row, query),

    /**
     * The result of one of the account's questions (another account's, or none: 404). One
     * statement reads the question row, the flags of the answers the cached entry shows for this
     * filter and the summary's fingerprint; a cached result then needs nothing more, and the same
     * inputs give the same Result object (result-builder.ts), so its bytes are made once.
     */
    async forAccount(accountId: string, id: string, query: ResultQuery = {}): Promise<Result> {
      const trusted = deps.freshness?.hearsEveryChange() ?? false;
      const key = `${accountId}\u0000${id}\u0000${JSON.stringify(query)}`;
      const stamp = stampNow();
      if (trusted) {
        const last = kept.get(key);
        if (last?.stamp === stamp) {
          keptHits += 1;
          return last.result;
        }
        if (last) kept.delete(key);
      }
      const expected = expectedRefs(id, query);
      const state = await repo.resultState(accountId, id, expected);
      if (!state) throw notFound('No such question on this account.');
      const result = await build(state.row, query, { refs: new Set(expected), flags: state.flags, insightsStamp: state.insightsStamp });
      if (trusted && stampNow() === stamp && deps.freshness!.hearsEveryChange()) {
        kept.set(key, { stamp, result }, 1);
      }
      return result;
    },

    /** The cached answers of one of the account's questions (the answers list reads them). */
    async entry(accountId: string, id: string): Promise<{ row: Row; entry: ResultEntry }> {
      const row = await questionRow(accountId, id);
      return { row, entry: await loader.entryFor(row) };
    },

    /** Drops a question's cached answers (after a change that does not move updated_at), and every kept result. */
    invalidate(id: string): void {
      loader.invalidate(id);
      heard += 1;
    },

    /** Where an answer sits among its question's, removed ones included (the answers list's cursor). */
    answerPosition: (questionId: string, attestationRef: string) => repo.answerPosition(questionId, attestationRef),

    withFlags,

    /** Cache counters, for tests and operators. */
    cacheStats: () => ({ ...loader.cacheStats(), keptHits }),
  };
}
export type ResultService = ReturnType<typeof createResultService>;
