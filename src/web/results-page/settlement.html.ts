import type { Result } from '../../modules/results/results.schemas.ts';
import { escapeHtml } from '../shared/html.ts';
import type { Strings } from '../shared/strings/index.ts';

/**
 * What the results pages say of early stopping (docs/early-stopping.md; Result.settlement), in the
 * page's language and composed from the settlement's fields: its `note` is English only, and names
 * the refund in credits, which only the account's own view may show (the public page and share
 * links show no money). Every value is escaped; templates are escaped before values go in.
 *
 *  - stopped by its rule: a box near the top ("Stopped early at 8 of 50 answers: …"), and beside
 *    the bars the anytime-valid intervals the result then carries, with a line saying what they are;
 *  - stopped, then withdrawn after answers were removed in review: the box says the claim is withdrawn;
 *  - asked with a rule not met: while collecting, the rule ("Stops early when settled: …"); once
 *    closed, that it never settled;
 *  - asked without a rule: where the reference rule would have settled, when it would have.
 */
type Settlement = NonNullable<Result['settlement']>;

export interface SettlementWords {
  lang: string;
  s: Strings;
  /** "10 answers" in the page's language. */
  answers: (n: number) => string;
  /** An option as the page names it (yes/mostly/no and "Neither" in the page's language). */
  option: (label: string) => string;
  /** The question still takes answers. */
  collecting: boolean;
  /** The account's own view: the refund in credits may be shown. */
  showCredits: boolean;
}

/** A template with `{name}` placeholders filled with HTML the caller has already escaped. */
const fillHtml = (template: string, values: Record<string, string>): string => escapeHtml(template).replace(/\{(\w+)\}/g, (m, k: string) => values[k] ?? m);
const fill = (template: string, values: Record<string, string>): string =>
  fillHtml(template, Object.fromEntries(Object.entries(values).map(([k, v]) => [k, escapeHtml(v)])));

function numbers(lang: string) {
  const integer = new Intl.NumberFormat(lang);
  // 0.999 is "99.9%", not "100%".
  const confidence = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 });
  const decimal = new Intl.NumberFormat(lang, { maximumFractionDigits: 2 });
  const plural = new Intl.PluralRules(lang);
  return { integer, confidence, decimal, plural };
}

/** "leader rule", "margin rule (10 points)", "margin rule (± 0.5 stars)". */
function ruleWords(settlement: Settlement, w: SettlementWords): string {
  if (settlement.rule === 'leader' || settlement.points === null) return w.s.resultsRuleLeader;
  const { decimal, plural } = numbers(w.lang);
  const one = plural.select(settlement.points) === 'one';
  const stars = settlement.method === 'betting_dkelly';
  const template = stars ? (one ? w.s.resultsStarsOne : w.s.resultsStarsMany) : one ? w.s.resultsPointsOne : w.s.resultsPointsMany;
  return w.s.resultsRuleMargin.replace('{points}', template.replace('{n}', decimal.format(settlement.points)));
}

/** What was settled, as HTML: "<strong>Penny</strong> is the favourite", "the average is between 4.1 and 4.6". */
function claim(settlement: Settlement, w: SettlementWords): string {
  const { decimal, plural } = numbers(w.lang);
  const leader = settlement.leader === null ? null : `<strong>${escapeHtml(w.option(settlement.leader))}</strong>`;
  if (settlement.method === 'betting_dkelly' && settlement.interval) {
    return fill(w.s.resultsClaimMean, { lower: decimal.format(settlement.interval.lower), upper: decimal.format(settlement.interval.upper) });
  }
  if (leader === null) return escapeHtml(w.s.resultsClaimSettled);
  if (settlement.method === 'ppr_1v1') return fillHtml(w.s.resultsClaimLeader, { leader });
  const points = settlement.points ?? 0;
  if (points <= 0) return fillHtml(w.s.resultsClaimAhead, { leader });
  const template = plural.select(points) === 'one' ? w.s.resultsPointsOne : w.s.resultsPointsMany;
  return fillHtml(w.s.resultsClaimLead, { leader, points: escapeHtml(template.replace('{n}', decimal.format(points))) });
}

/** The line (or box) under the status line; empty when there is nothing to say. */
export function settlementLine(settlement: Settlement | null | undefined, w: SettlementWords): string {
  if (!settlement) return '';
  const { integer, confidence } = numbers(w.lang);
  const at = settlement.settledAt;
  const pct = confidence.format(settlement.confidence);
  const credits = (template: string) => (w.showCredits && settlement.refundedCredits > 0 ? ` ${fill(template, { credits: integer.format(settlement.refundedCredits) })}` : '');
  const hint = (html: string) => `<p class="hint settlement-hint" data-testid="settlement">${html}</p>`;

  if (settlement.stopped && at !== null) {
    const counts = { at: integer.format(at), total: integer.format(settlement.nRequested) };
    if (settlement.withdrawn) {
      return `<p class="settlement withdrawn" data-testid="settlement">${fill(w.s.resultsWithdrawn, counts)}${credits(w.s.resultsRefundStands)}</p>`;
    }
    const text = fillHtml(w.s.resultsStopped, { ...counts, claim: claim(settlement, w), confidence: escapeHtml(pct) });
    return `<p class="settlement stopped" data-testid="settlement">${text}${credits(w.s.resultsRefunded)}</p>`;
  }
  if (!settlement.asked) return at === null ? '' : hint(fill(w.s.resultsWouldHaveSettled, { count: w.answers(at) }));
  if (at !== null) return hint(fillHtml(w.s.resultsSettledLast, { count: escapeHtml(w.answers(at)), claim: claim(settlement, w), confidence: escapeHtml(pct) }));
  const rule = ruleWords(settlement, w);
  return w.collecting
    ? hint(fill(w.s.resultsStopsWhen, { rule, confidence: pct, count: w.answers(settlement.floor) }))
    : hint(fill(w.s.resultsNeverSettled, { rule, confidence: pct }));
}

/** Beside the bars of a question its rule stopped: what the intervals are (null when they are 95% Wilson, which the page does not show). */
export function intervalsLabel(settlement: Settlement | null | undefined, w: Pick<SettlementWords, 'lang' | 's'>): string | null {
  if (settlement?.intervals !== 'anytime_valid') return null;
  return `<p class="hint small settlement-intervals">${fill(w.s.resultsIntervals, { confidence: numbers(w.lang).confidence.format(settlement.confidence) })}</p>`;
}

/** One bar's anytime-valid interval on a line of its own under the share ("interval 42% to 100%"; read as ", interval …"), or nothing. */
export function barInterval(settlement: Settlement | null | undefined, item: { low?: number; high?: number }, s: Strings, pct: (x: number) => string): string {
  if (settlement?.intervals !== 'anytime_valid' || item.low === undefined || item.high === undefined) return '';
  return `<span class="visually-hidden">, </span><span class="bar-interval">${fill(s.resultsInterval, { low: pct(item.low), high: pct(item.high) })}</span>`;
}
