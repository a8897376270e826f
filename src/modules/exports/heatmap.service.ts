import { notFound, validationError } from '../../lib/errors.ts';
import { concurrencyLimit } from '../../lib/concurrency-limit.ts';
import { applyFilter, filterKey, filterOf, type ResultFilter, type ResultQuery } from '../results/filters.ts';
import { WeightedLru } from '../results/result-cache.ts';
import type { ResultService } from '../results/results.service.ts';
import type { ResultEntry } from '../results/result-entry.ts';
import type { SharingService } from '../sharing/sharing.service.ts';
import { DEFAULT_ASPECT, MAX_ASPECT, MIN_ASPECT, renderHeatmapPng, snapAspect, type TapPoint } from './heatmap.ts';

/**
 * The click-test heatmap PNG (spec Exports; docs/results.md "Heatmap") of a requester's question,
 * of a public results page and of a private share link.
 *
 * The taps come from the result service's cached answers (`results.entry`), so a heatmap costs
 * no answer query: only the question row is read (and the page or link, for the public ones).
 * Filters are the result's (same 400s, same small-cell suppression: a suppressed filter draws
 * nothing). Pictures are kept in a small LRU keyed by the cached answers they were drawn from
 * (each entry object is replaced when answers change), the filter and the aspect's ladder step,
 * so a page that polls the result and its heatmap renders once per change, and a client sending
 * a new aspect each time gets cached pictures after a handful of renders.
 *
 * A question that is not a click test has no heatmap: 404 `not_found` with a message saying so
 * (the catalogue's 409 `conflict` is about the state of an object, and no state of a choice
 * question would give it a heatmap).
 */
export interface HeatmapQuery extends ResultQuery {
  aspect?: number;
}

const CACHE_BYTES = 16 * 1024 * 1024;
const CACHE_ENTRIES = 256;
/**
 * Renders running at once (each takes a libuv worker thread for tens of milliseconds): the public
 * variants need no key, and each new aspect is a new picture, so they queue rather than take
 * every worker thread and core.
 */
const MAX_RENDERS = 2;

export interface HeatmapServiceDeps {
  results: Pick<ResultService, 'entry'>;
  sharing: Pick<SharingService, 'publicRow' | 'sharedRow'>;
  /** Draws the PNG; tests pass a fake. */
  render?: (points: readonly TapPoint[], aspect: number) => Promise<Buffer>;
}

export function createHeatmapService(deps: HeatmapServiceDeps) {
  const { results, sharing, render = renderHeatmapPng } = deps;
  const cache = new WeightedLru<string, Buffer>(CACHE_BYTES, CACHE_ENTRIES);
  const drawing = new Map<string, Promise<Buffer>>();
  const serials = new WeakMap<ResultEntry, number>();
  let nextSerial = 0;
  const stats = { renders: 0, hits: 0 };
  const limited = concurrencyLimit(MAX_RENDERS);

  function serialOf(entry: ResultEntry): number {
    let serial = serials.get(entry);
    if (serial === undefined) {
      serial = ++nextSerial;
      serials.set(entry, serial);
    }
    return serial;
  }

  /**
   * The ladder step the picture is drawn at (heatmap.ts ASPECT_LADDER): the cache is keyed by it,
   * so distinct aspects share a handful of pictures. The routes' schema checks the range too;
   * this guards the other callers (CLI, MCP).
   */
  function checkedAspect(aspect: number | undefined): number {
    if (aspect === undefined) return DEFAULT_ASPECT;
    if (!(aspect >= MIN_ASPECT && aspect <= MAX_ASPECT)) {
      throw validationError([{ field: 'aspect', code: 'out_of_range', message: `aspect (width / height) must be ${MIN_ASPECT} to ${MAX_ASPECT}.` }]);
    }
    return snapAspect(aspect);
  }

  async function draw(entry: ResultEntry, filter: ResultFilter, aspect: number): Promise<Buffer> {
    const key = `${serialOf(entry)}|${filterKey(filter)}|${aspect}`;
    const cached = cache.get(key);
    if (cached) {
      stats.hits += 1;
      return cached;
    }
    let pending = drawing.get(key);
    if (!pending) {
      const points: TapPoint[] = [];
      for (const row of applyFilter(entry.rows, filter, entry.ctx.type).rows) if (row.taps) points.push(...row.taps);
      stats.renders += 1;
      pending = limited(() => render(points, aspect))
        .then((png) => {
          cache.set(key, png, png.length);
          return png;
        })
        .finally(() => drawing.delete(key));
      drawing.set(key, pending);
    }
    return pending;
  }

  function clickTest(entry: ResultEntry): ResultEntry {
    if (entry.ctx.type !== 'click_test') throw notFound('This question is not a click test: only click tests have a heatmap.');
    return entry;
  }

  async function byRow(row: { id: string; account_id: string }, aspect: number): Promise<Buffer> {
    const { entry } = await results.entry(row.account_id, row.id);
    return draw(clickTest(entry), {}, aspect);
  }

  return {
    /** GET /v2/questions/{id}/heatmap.png: one of the account's click tests, with the result's filters. */
    async forAccount(accountId: string, id: string, query: HeatmapQuery = {}): Promise<Buffer> {
      const { aspect, ...filters } = query;
      const checked = checkedAspect(aspect);
      const { entry } = await results.entry(accountId, id);
      clickTest(entry);
      return draw(entry, filterOf(filters, entry.ctx.type, entry.ctx.labels), checked);
    },

    /** GET /v1/public/results/{code}/heatmap.png: every tap, as the public page counts them. */
    async forPublicResults(code: string, aspect?: number): Promise<Buffer> {
      const checked = checkedAspect(aspect);
      return byRow(await sharing.publicRow(code), checked);
    },

    /** GET /v1/public/shared/{token}/heatmap.png: every tap, while the link works. */
    async forSharedLink(token: string, aspect?: number): Promise<Buffer> {
      const checked = checkedAspect(aspect);
      return byRow(await sharing.sharedRow(token), checked);
    },

    /** Renders and cache hits, for tests and operators. */
    stats(): { renders: number; hits: number; entries: number; bytes: number } {
      return { ...stats, entries: cache.size, bytes: cache.weight };
    },
  };
}
export type HeatmapService = ReturnType<typeof createHeatmapService>;
