import type { Insights } from '../insights/insights.schemas.ts';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { QuestionsTable } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { answerLabels } from '../draft/answer-format.ts';
import { storedDraft } from '../draft/stored-draft.ts';
import type { QuestionType } from '../draft/question-types.ts';
import { facetsOf, type Facets } from './breakdowns.ts';
import { applyFilter, filterKey, filterOf, isFiltered, type ResultFilter, type ResultQuery } from './filters.ts';
import { WeightedLru } from './result-cache.ts';
import { viewOf, type QuestionContext, type View } from './result-view.ts';
import { createResultsRepository, type AnswerRow } from './results.repository.ts';
import type { Answer, Result } from './results.schemas.ts';
import { summarize } from './summary.ts';
import { EVERY_QUESTION, type Notifier } from '../../lib/notifier.ts';

export { RESULT_ANSWERS } from './result-view.ts';

/**
 * GET /v2/questions/{id}/result (and the result inside wait, public results): every field of the
 * spec's Result, partial while live (docs/results.md).
 *
 * Speed (docs/results.md "Caching"): the question row is read on every call (it is small and
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
 */
type Row = Selectable<QuestionsTable>;

/**
 * The question read a result starts from: questions.repository's findRow, handed in by the
 * container (results does not import the questions module, which imports results).
 */
export interface QuestionRowReader {
  findRow(accountId: string, id: string): Promise<Row | undefined>;
}

const STATUS: Record<string, Result['status']> = {
  draft: 'in_progress',
  scheduled: 'in_progress',
  live: 'in_progress',
  complete: 'complete',
  underfilled: 'underfilled',
  cancelled: 'cancelled',
  refused: 'cancelled',
};

/** Filtered views kept per question version. */
const FILTERED_VIEWS = 16;

export interface ResultEntry {
  version: string;
  ctx: QuestionContext;
  /** Every accepted, not removed answer, newest first. */
  rows: AnswerRow[];
  /** Answers kept that carry a translation, and the language of those translations (null: none). */
  translated: number;
  translationLanguage: string | null;
  /** Answer rows read, removed ones included; the highest seq read; how many were removed. */
  read: number;
  maxSeq: number;
  removed: number;
  /** A "question changed" arrived since it was read: check before serving it again. */
  dirty: boolean;
  all: View;
  facets: Facets;
  simulated: boolean;
  panel: number;
  link: number;
  filtered: Map<string, { view: View; suppressed: boolean }>;
}

export type AnswerFlagLookup = (questionId: string, attestationRefs: readonly string[]) => Promise<Map<string, NonNullable<Answer['flag']>>>;

export interface ResultServiceOptions {
  /** "Question changed" wake-ups: each drops the question's cached answers. */
  notifier?: Pick<Notifier, 'subscribe'>;
  /** Each shown answer's latest flag (Answer.flag); default: the latest row of answer_flags (results.repository.ts latestFlags). */
  answerFlags?: AnswerFlagLookup;
  /** Approximate bytes of answers the cache may hold (default 64 MB). */
  cacheBytes?: number;
  /** Questions the cache may hold (default 1,000). */
  cacheEntries?: number;
  /** The latest summary of written answers (Result.insights); one primary-key read. */
  insights?: { latest(questionId: string): Promise<Insights | null> };
  /** Result.clicks.heatmapUrl of a click test for this filter (exports' heatmap route); default null. */
  heatmapUrl?: (questionId: string, filter: ResultFilter) => string | null;
}

export function versionOf(row: Pick<Row, 'updated_at' | 'answered'>): string {
  return `${row.updated_at.getTime()}:${row.answered}`;
}

const languageOf = (row: Row): string => storedDraft(row.draft).language;

function contextOf(row: Row): QuestionContext {
  const draft = storedDraft(row.draft);
  const type = row.type as QuestionType;
  const labels = type === 'free_text' || type === 'click_test' ? [] : answerLabels(draft);
  return { type, labels, imageUrl: draft.stimulus?.imageUrl ?? null };
}

/** Rough memory of the rows: a fixed cost each plus their strings (twice: text and its lower case). */
function weightOf(rows: readonly AnswerRow[]): number {
  let bytes = 0;
  for (const row of rows) bytes += 600 + 4 * ((row.text?.length ?? 0) + (row.reason?.length ?? 0)) + 40 * (row.taps?.length ?? 0);
  return bytes;
}

function verificationLine(entry: ResultEntry, tier: number): string {
  const { panel, link } = entry;
  if (entry.simulated) return 'Answered by simulated heads (development mode), not real people.';
  const heads = `${panel} verified head${panel === 1 ? '' : 's'} of tier ${tier} or above`;
  const people = `${link} ${link === 1 ? 'person' : 'people'} through the answer link (not verified)`;
  if (panel && link) return `Answered by ${heads} and ${people}.`;
  if (panel) return `Answered by ${heads}.`;
  if (link) return `Answered by ${people}.`;
  return 'No answers yet.';
}

export function createResultService(deps: { db: Db; questions: QuestionRowReader } & ResultServiceOptions) {
  const { db } = deps;
  const repo = createResultsRepository(db);
  const answerFlags: AnswerFlagLookup = deps.answerFlags ?? ((id, refs) => repo.latestFlags(id, refs));
  const cache = new WeightedLru<string, ResultEntry>(deps.cacheBytes ?? 64 * 1024 * 1024, deps.cacheEntries ?? 1000);
  /** Loads in flight, so concurrent readers of one version share one query. */
  const loading = new Map<string, { promise: Promise<ResultEntry>; dirty: boolean }>();
  const stats = { hits: 0, loads: 0, refreshes: 0 };
  /**
   * Results built from each cached entry, keyed by everything else they depend on (filter,
   * question row, flags shown, summary). Callers must not change what they get: a repeat read
   * returns the same object, and its JSON is made once (http/shared-json.ts).
   */
  const built = new WeakMap<ResultEntry, Map<string, Result>>();

  /** A read already running may have seen the answers before the change: mark what it keeps. */
  function markFlights(id: string): void {
    for (const [key, flight] of loading) {
      if (id === EVERY_QUESTION || key.startsWith(`${id}@`)) {
        flight.dirty = true;
        loading.delete(key);
      }
    }
  }

  /** Drops the question's cached answers: the next read loads them all again. */
  function invalidate(id: string): void {
    cache.delete(id);
    markFlights(id);
  }

  /**
   * "Question changed" (a new answer, a pin, a removal, a close): the cached entry is checked on
   * its next read (new answers, pins and removals compared with the database) before use.
   */
  deps.notifier?.subscribe((id) => {
    if (id === EVERY_QUESTION) {
      // Changes may have been missed (the LISTEN connection was lost): check every entry.
      for (const entry of cache.values()) entry.dirty = true;
    } else {
      const cached = cache.get(id);
      if (cached) cached.dirty = true;
    }
    markFlights(id);
  });

  function makeEntry(row: Row, version: string, loaded: { rows: AnswerRow[]; read: number; maxSeq: number; removed: number }): ResultEntry {
    const ctx = contextOf(row);
    const { rows } = loaded;
    let simulated = false;
    let panel = 0;
    let translated = 0;
    let translationLanguage: string | null = null;
    for (const r of rows) {
      if (r.simulated) simulated = true;
      if (r.profiled) panel += 1;
      if (r.translatedTo) {
        translated += 1;
        translationLanguage ??= r.translatedTo;
      }
    }
    return {
      ...loaded, version, ctx, all: viewOf(ctx, rows), facets: facetsOf(rows), simulated, panel, link: rows.length - panel,
      translated, translationLanguage, filtered: new Map(), dirty: false,
    };
  }

  /** Every answer of the question, with one query. */
  async function load(row: Row, version: string): Promise<ResultEntry> {
    stats.loads += 1;
    const loaded = await repo.answersOf(row.id, 0, languageOf(row));
    return makeEntry(row, version, { ...loaded, removed: loaded.read - loaded.rows.length });
  }

  /**
   * A newer version of a cached question, or one announced as changed: read only the answers
   * recorded since, and aggregate again in memory. Falls back to a full load when anything else
   * changed: an answer was removed, a pin moved, an answer was translated, or fewer answers were found than the question
   * counts.
   */
  async function refresh(row: Row, version: string, cached: ResultEntry): Promise<ResultEntry> {
    const [fresh, { removed, translated, pinned }] = await Promise.all([repo.answersOf(row.id, cached.maxSeq, languageOf(row)), repo.changesOf(row.id)]);
    const freshTranslated = fresh.rows.filter((r) => r.translatedTo).length;
    const pinnedBefore = cached.rows.filter((r) => r.pinned).map((r) => r.seq);
    const pinnedOld = pinned.filter((seq) => seq <= cached.maxSeq);
    const pinsMoved = pinnedOld.length !== pinnedBefore.length || pinnedOld.some((seq, i) => seq !== pinnedBefore[pinnedBefore.length - 1 - i]);
    const translationsCame = translated !== cached.translated + freshTranslated;
    if (removed !== cached.removed || translationsCame || pinsMoved || cached.read + fresh.read < row.answered) return load(row, version);
    stats.refreshes += 1;
    if (fresh.read === 0) return { ...cached, version, dirty: false };
    return makeEntry(row, version, { rows: [...fresh.rows, ...cached.rows], read: cached.read + fresh.read, maxSeq: fresh.maxSeq, removed });
  }

  async function entryFor(row: Row): Promise<ResultEntry> {
    const version = versionOf(row);
    const cached = cache.get(row.id);
    if (cached?.version === version && !cached.dirty) {
      stats.hits += 1;
      return cached;
    }
    const flightKey = `${row.id}@${version}`;
    let flight = loading.get(flightKey);
    if (!flight) {
      // The callbacks run after the read, when `started` exists (async functions never call back at once).
      const started: { promise: Promise<ResultEntry>; dirty: boolean } = {
        dirty: false,
        promise: (cached ? refresh(row, version, cached) : load(row, version))
          .then((entry) => {
            // A change announced while reading may not be in what was read: check it next time.
            if (started.dirty) entry.dirty = true;
            cache.set(row.id, entry, weightOf(entry.rows));
            return entry;
          })
          .finally(() => {
            if (loading.get(flightKey) === started) loading.delete(flightKey);
          }),
      };
      loading.set(flightKey, started);
      flight = started;
    }
    return flight.promise;
  }

  function viewFor(entry: ResultEntry, filter: ResultFilter): { view: View; suppressed: boolean } {
    if (!isFiltered(filter)) return { view: entry.all, suppressed: false };
    const key = filterKey(filter);
    let found = entry.filtered.get(key);
    if (!found) {
      const { rows, suppressed } = applyFilter(entry.rows, filter, entry.ctx.type);
      found = { view: viewOf(entry.ctx, rows), suppressed };
      if (entry.filtered.size >= FILTERED_VIEWS) entry.filtered.delete(entry.filtered.keys().next().value as string);
      entry.filtered.set(key, found);
    }
    return found;
  }

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
      const entry = await entryFor(row);
      const filter = filterOf(query, entry.ctx.type, entry.ctx.labels);
      const { view, suppressed } = viewFor(entry, filter);
      // The flags of the answers shown and the latest summary: two reads, side by side.
      const [answers, insights] = await Promise.all([withFlags(row.id, view.answers), deps.insights ? deps.insights.latest(row.id) : undefined]);
      // The same inputs give the same object, so a route serializes it once (http/shared-json.ts).
      const memoKey = [
        filterKey(filter), row.status, row.updated_at.getTime(), row.n, row.tier, row.credits_spent, row.credits_refunded,
        answers.filter((a) => a.flag).map((a) => `${a.attestationRef}:${JSON.stringify(a.flag)}`).join(','),
        insights === undefined ? '-' : insights === null ? 'none' : `${insights.generatedAt}:${insights.kind}:${insights.language}`,
      ].join('|');
      let memo = built.get(entry);
      const known = memo?.get(memoKey);
      if (known) return known;
      const draft = storedDraft(row.draft);
      const status = STATUS[row.status];
      const summary = summarize({
        type: entry.ctx.type,
        n: view.n,
        distribution: view.distribution,
        mean: view.mean,
        clicks: view.clicks,
        live: status === 'in_progress',
        suppressed,
      });
      const result: Result = {
        questionId: row.id,
        status,
        nRequested: row.n,
        nAccepted: view.n,
        distribution: view.distribution,
        mean: view.mean,
        summary,
        tier: row.tier,
        language: draft.language,
        verificationLine: verificationLine(entry, row.tier),
        medianSeconds: view.medianSeconds,
        creditsSpent: row.credits_spent,
        answers,
        breakdown: view.breakdowns.breakdown,
        refundCredits: row.credits_refunded,
        breakdowns: view.breakdowns.breakdowns,
        ...(view.clicks ? { clicks: { ...view.clicks, heatmapUrl: deps.heatmapUrl?.(row.id, filter) ?? null } } : {}),
        ...(view.sentiment ? { sentiment: view.sentiment } : {}),
        translationLanguage: entry.translationLanguage,
        filter,
        nUnfiltered: entry.rows.length,
        suppressed: suppressed || view.breakdowns.suppressed,
        facets: entry.facets,
        // The summary covers every written answer, whatever the filter (docs/insights.md).
        ...(insights !== undefined ? { insights } : {}),
      };
      if (!memo) built.set(entry, (memo = new Map()));
      if (memo.size >= FILTERED_VIEWS) memo.delete(memo.keys().next().value as string);
      memo.set(memoKey, result);
      return result;
    },

    async forAccount(accountId: string, id: string, query: ResultQuery = {}): Promise<Result> {
      return this.build(await questionRow(accountId, id), query);
    },

    /** The cached answers of one of the account's questions (the answers list reads them). */
    async entry(accountId: string, id: string): Promise<{ row: Row; entry: ResultEntry }> {
      const row = await questionRow(accountId, id);
      return { row, entry: await entryFor(row) };
    },

    /** Drops a question's cached answers (after a change that does not move updated_at). */
    invalidate,

    /** Where an answer sits among its question's, removed ones included (the answers list's cursor). */
    answerPosition: (questionId: string, attestationRef: string) => repo.answerPosition(questionId, attestationRef),

    withFlags,

    /** Cache counters, for tests and operators. */
    cacheStats(): { hits: number; loads: number; refreshes: number; entries: number; bytes: number } {
      return { ...stats, entries: cache.size, bytes: cache.weight };
    },
  };
}
export type ResultService = ReturnType<typeof createResultService>;
