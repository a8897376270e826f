import type { Insights } from '../insights/insights.schemas.ts';
import { storedDraft } from '../draft/stored-draft.ts';
import { applyFilter, filterKey, isFiltered, type ResultFilter } from './filters.ts';
import type { ResultEntry } from './result-entry.ts';
import { viewOf, type View } from './result-view.ts';
import type { AnswerFlag, ResultQuestion } from './results.repository.ts';
import type { Result } from './results.schemas.ts';
import { summarize } from './summary.ts';
import { stimulusAspect } from './stimulus-aspect.ts';
import { anytimeIntervals, settlementView } from '../settlement/settlement-view.ts';
import { storedSettlement } from '../settlement/settlement.schemas.ts';
import type { Settlement } from '../settlement/settlement.schemas.ts';

/**
 * A cached entry turned into a Result (docs/results.md): the view of a filter (kept in the entry,
 * a few per question), and the Result made from it, the question row, the flags of the answers
 * shown and the latest summary, memoized per entry. No reads: results.service.ts does those.
 */
type Row = ResultQuestion;

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

export interface ResultBuilderOptions {
  /** Result.clicks.heatmapUrl of a click test for this filter (exports' heatmap route), shaped like its image when known; default null. */
  heatmapUrl?: (questionId: string, filter: ResultFilter, aspect?: number) => string | null;
}

/** The view a filter shows; filtered ones are computed from the cached rows once and kept in the entry. */
export interface ShownView {
  view: View;
  suppressed: boolean;
}

/**
 * Who answered, in counts. Simulated answers (development mode) are never passed off as people's:
 * all of them simulated keeps the one plain line; some of them (people answering through the
 * link of a question the development panel also answers) are counted apart from the others.
 */
function verificationLine(entry: ResultEntry, tier: number): string {
  const { simulated, panel, link } = entry;
  if (simulated && !panel && !link) return 'Answered by simulated heads (development mode), not real people.';
  const parts = [
    simulated ? `${simulated} simulated head${simulated === 1 ? '' : 's'} (development mode, not real people)` : '',
    panel ? `${panel} verified head${panel === 1 ? '' : 's'} of tier ${tier} or above` : '',
    link ? `${link} ${link === 1 ? 'person' : 'people'} through the answer link (not verified)` : '',
  ].filter(Boolean);
  if (parts.length === 0) return 'No answers yet.';
  return `Answered by ${parts.length === 3 ? `${parts[0]}, ${parts[1]}` : parts.slice(0, -1).join('')}${parts.length > 1 ? ' and ' : ''}${parts.at(-1)}.`;
}

export function viewFor(entry: ResultEntry, filter: ResultFilter): ShownView {
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

/** The view of `filter` if the entry has it already (unfiltered, or a filtered view kept): nothing is computed. */
export function keptView(entry: ResultEntry, filter: ResultFilter): ShownView | undefined {
  return isFiltered(filter) ? entry.filtered.get(filterKey(filter)) : { view: entry.all, suppressed: false };
}

/** Result.settlement: read on the whole question (the unfiltered view), whatever the filter. */
function settlementOf(row: Row, entry: ResultEntry): Settlement | null {
  const counts = new Map(entry.all.distribution.map((item) => [item.option, item.count]));
  return settlementView({
    type: entry.ctx.type,
    status: row.status,
    n: row.n,
    draft: storedDraft(row.draft),
    stored: storedSettlement(row.settlement),
    labels: entry.ctx.labels,
    counts: entry.ctx.labels.map((label) => counts.get(label) ?? 0),
    counted: entry.all.n,
  });
}

export function createResultBuilder(deps: ResultBuilderOptions) {
  /**
   * Results built from each cached entry, keyed by everything else they depend on (filter,
   * question row, flags shown, summary). Callers must not change what they get: a repeat read
   * returns the same object, and its bytes are made once (http/prepared-json.ts).
   */
  const built = new WeakMap<ResultEntry, Map<string, Result>>();

  /**
   * The Result of a question row, its cached entry and the view of `filter`, given the latest
   * flags of the answers shown (answers without one are absent) and the latest summary
   * (undefined: no summaries here). `insightsKey` names that summary when the caller knows a
   * fingerprint of it (results.repository.ts resultState); otherwise its time, kind and language do.
   */
  function resultOf(
    row: Row, entry: ResultEntry, filter: ResultFilter, shown: ShownView, flags: ReadonlyMap<string, AnswerFlag>, insights: Insights | null | undefined, insightsKey?: string,
  ): Result {
    const { view, suppressed } = shown;
    // The same inputs give the same object, so a route serializes it once (http/prepared-json.ts).
    let flagged = '';
    if (flags.size > 0) {
      for (const a of view.answers) {
        const flag = flags.get(a.attestationRef);
        if (flag) flagged += `${a.attestationRef}:${JSON.stringify(flag)},`;
      }
    }
    const memoKey = [
      filterKey(filter), row.status, row.updated_at.getTime(), row.n, row.tier, row.credits_spent, row.credits_refunded, flagged,
      insights === undefined ? '-' : insights === null ? 'none' : (insightsKey ?? `${insights.generatedAt}:${insights.kind}:${insights.language}`),
    ].join('|');
    let memo = built.get(entry);
    const known = memo?.get(memoKey);
    if (known) return known;
    const answers = view.answers.map((a) => ({ ...a, flag: flags.get(a.attestationRef) ?? null }));
    const draft = storedDraft(row.draft);
    const status = STATUS[row.status];
    const settlement = settlementOf(row, entry);
    // A question its rule stopped shows anytime-valid intervals (settlement.intervals says so).
    const distribution = settlement?.stopped ? anytimeIntervals(view.distribution, view.n, settlement.alpha) : view.distribution;
    const summary = summarize({
      type: entry.ctx.type,
      n: view.n,
      distribution: view.distribution,
      mean: view.mean,
      clicks: view.clicks,
      live: status === 'in_progress',
      suppressed,
      ...(settlement?.stopped && !settlement.withdrawn ? { settledWithConfidence: settlement.confidence } : {}),
    });
    const result: Result = {
      questionId: row.id,
      status,
      nRequested: row.n,
      nAccepted: view.n,
      distribution,
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
      ...(view.clicks ? { clicks: { ...view.clicks, heatmapUrl: deps.heatmapUrl?.(row.id, filter, stimulusAspect(row)) ?? null } } : {}),
      ...(view.sentiment ? { sentiment: view.sentiment } : {}),
      translationLanguage: entry.translationLanguage,
      filter,
      nUnfiltered: entry.rows.length,
      suppressed: suppressed || view.breakdowns.suppressed,
      facets: entry.facets,
      // The summary covers every written answer, whatever the filter (docs/insights.md).
      ...(insights !== undefined ? { insights } : {}),
      settlement,
    };
    if (!memo) built.set(entry, (memo = new Map()));
    if (memo.size >= FILTERED_VIEWS) memo.delete(memo.keys().next().value as string);
    memo.set(memoKey, result);
    return result;
  }

  return { resultOf };
}
export type ResultBuilder = ReturnType<typeof createResultBuilder>;
