import { EVERY_QUESTION, type Notifier } from '../../lib/notifier.ts';
import { storedDraft } from '../draft/stored-draft.ts';
import { WeightedLru } from './result-cache.ts';
import { makeEntry, versionOf, type ResultEntry } from './result-entry.ts';
import type { AnswerRow, ResultQuestion, ResultsRepository } from './results.repository.ts';

/**
 * The results module's answers in memory (docs/results.md "Caching and speed"): one entry per
 * question in a WeightedLru, loaded with one query the first time, refreshed with only the answers
 * recorded since when the question's version moves, checked again when the notifier says the
 * question changed, and shared by concurrent readers of one version (one load in flight).
 */
type Row = ResultQuestion;

export interface ResultLoaderOptions {
  /** "Question changed" wake-ups: each marks the question's cached answers to be checked on their next read. */
  notifier?: Pick<Notifier, 'subscribe'>;
  /** Approximate bytes of answers the cache may hold (default 64 MB). */
  cacheBytes?: number;
  /** Questions the cache may hold (default 1,000). */
  cacheEntries?: number;
}

const languageOf = (row: Row): string => storedDraft(row.draft).language;

/** Rough memory of the rows: a fixed cost each plus their strings (twice: text and its lower case). */
function weightOf(rows: readonly AnswerRow[]): number {
  let bytes = 0;
  for (const row of rows) bytes += 600 + 4 * ((row.text?.length ?? 0) + (row.reason?.length ?? 0)) + 40 * (row.taps?.length ?? 0);
  return bytes;
}

export function createResultLoader(deps: { repo: Pick<ResultsRepository, 'answersOf' | 'changesOf'> } & ResultLoaderOptions) {
  const { repo } = deps;
  const cache = new WeightedLru<string, ResultEntry>(deps.cacheBytes ?? 64 * 1024 * 1024, deps.cacheEntries ?? 1000);
  /** Loads in flight, so concurrent readers of one version share one query. */
  const loading = new Map<string, { promise: Promise<ResultEntry>; dirty: boolean }>();
  const stats = { hits: 0, loads: 0, refreshes: 0 };

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

  /** The question's entry for its current version: from memory, refreshed, or loaded. */
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

  return {
    entryFor,
    /** The cached entry of a question, whatever its version (a guess of what a read will show; no load). */
    peek: (id: string): ResultEntry | undefined => cache.get(id),
    invalidate,
    /** Cache counters, for tests and operators. */
    cacheStats(): { hits: number; loads: number; refreshes: number; entries: number; bytes: number } {
      return { ...stats, entries: cache.size, bytes: cache.weight };
    },
  };
}
export type ResultLoader = ReturnType<typeof createResultLoader>;
