import type { Colors } from './ui.ts';
import { padEnd, padStart, truncate } from './ui.ts';

/** The parts of a Result the chart reads (the spec's Result; `low`/`high` are the service's 95% interval). */
export interface ChartItem {
  option: string;
  count: number;
  share: number;
  low?: number;
  high?: number;
  averageRank?: number;
  appearances?: number;
  strength?: number;
  rank?: number;
}

export interface ChartResult {
  questionId: string;
  status: string;
  nRequested: number;
  nAccepted: number;
  distribution: ChartItem[];
  mean: number | null;
  summary: { winner: string | null; margin: number | null; confidence: string | null; note: string; suggestedFollowUp: string | null };
  verificationLine: string;
  creditsSpent: number;
  refundCredits: number;
  medianSeconds?: number | null;
  /** Early stopping (docs/early-stopping.md): the rule, where it settled, in plain words. */
  settlement?: { asked: boolean; stopped: boolean; settledAt: number | null; withdrawn: boolean; intervals: string; note: string } | null;
  clicks?: { taps: number; hotspots: Array<{ x: number; y: number; w: number; h: number; count: number; share: number }> };
}

export interface ChartQuestion {
  text?: string;
  type?: string;
}

export interface ChartOptions {
  /** Columns available (the terminal's, or 80). */
  width: number;
  colors: Colors;
}

const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** A bar of `share` (0–1) in `width` cells, to an eighth of a cell. */
export function bar(share: number, width: number): string {
  const clamped = Math.min(1, Math.max(0, Number.isFinite(share) ? share : 0));
  const eighths = Math.round(clamped * width * 8);
  const full = Math.floor(eighths / 8);
  const part = EIGHTHS[eighths % 8]!;
  return '█'.repeat(full) + part;
}

/** 0.8 → "80%"; below 10% one decimal ("4.5%") so small shares do not all read 0%. */
export function percent(share: number): string {
  const value = share * 100;
  if (value > 0 && value < 10 && Math.round(value) !== value) return `${value.toFixed(1)}%`;
  return `${Math.round(value)}%`;
}

/** "49–94%": the 95% interval of a share. */
export function interval(low: number, high: number): string {
  return `${Math.round(low * 100)}–${Math.round(high * 100)}%`;
}

const STATUS_WORDS: Record<string, string> = {
  in_progress: 'In progress',
  complete: 'Complete',
  underfilled: 'Underfilled',
  cancelled: 'Cancelled',
};

/**
 * The result as a person reads it in a terminal: the question, one bar per option with its share,
 * count and 95% interval, the summary's sentence, and a status line (answers, confidence, credits).
 */
export function renderChart(result: ChartResult, question: ChartQuestion | null, options: ChartOptions): string[] {
  const c = options.colors;
  const lines: string[] = [];
  if (question?.text) lines.push(c.bold(question.text));

  const items = result.distribution;
  if (items.length > 0) {
    const pairwise = items.some((item) => item.strength !== undefined);
    const ranking = !pairwise && items.some((item) => item.averageRank !== undefined);
    const labelWidth = Math.min(24, Math.max(...items.map((item) => [...item.option].length)));
    const countWidth = Math.max(...items.map((item) => String(item.count).length));
    const shareWidth = Math.max(...items.map((item) => percent(item.share).length));
    const extras = items.map((item) => extraOf(item, pairwise, ranking));
    const extraWidth = Math.max(...extras.map((text) => text.length));
    const fixed = 2 + labelWidth + 2 + 2 + shareWidth + 2 + countWidth + (extraWidth ? 2 + extraWidth : 0);
    const barWidth = Math.max(10, Math.min(40, options.width - fixed - 1));
    const leader = result.summary.winner;
    for (const [i, item] of items.entries()) {
      const label = padEnd(truncate(item.option, labelWidth), labelWidth);
      const cells = bar(item.share, barWidth);
      const painted = item.option === leader ? c.green(cells) : c.cyan(cells);
      const rest = c.dim('·'.repeat(Math.max(0, barWidth - [...cells].length)));
      let line = `  ${label}  ${painted}${rest}  ${c.bold(padStart(percent(item.share), shareWidth))}  ${padStart(String(item.count), countWidth)}`;
      if (extraWidth) line += `  ${c.dim(extras[i]!)}`;
      lines.push(line.trimEnd());
    }
    const legend = pairwise ? 'share = wins / appearances; strength by Bradley–Terry' : ranking ? 'count = ranked first' : null;
    const hasInterval = items.some((item) => item.low !== undefined);
    const anytime = result.settlement?.intervals === 'anytime_valid';
    const foot = [hasInterval ? (anytime ? '(…) is the anytime-valid interval of each share' : '(…) is the 95% interval of each share') : null, legend].filter(Boolean).join('; ');
    if (foot) lines.push(c.dim(`  ${foot}`));
  } else if (result.clicks) {
    lines.push(`  ${result.clicks.taps} tap${result.clicks.taps === 1 ? '' : 's'}`);
    for (const [i, spot] of result.clicks.hotspots.entries()) {
      lines.push(`  Hotspot ${i + 1}: ${percent(spot.share)} of taps (${spot.count}) around x ${Math.round((spot.x + spot.w / 2) * 100)}%, y ${Math.round((spot.y + spot.h / 2) * 100)}%`);
    }
  }
  if (result.mean !== null && result.mean !== undefined) lines.push(`  Mean ${result.mean.toFixed(2)}`);

  if (result.summary.note) lines.push(result.summary.note);
  const settlement = result.settlement;
  // The stopping rule's story when it matters to the reader: asked for, or where it would have settled.
  if (settlement && (settlement.asked || settlement.settledAt !== null)) lines.push(settlement.stopped ? settlement.note : c.dim(settlement.note));
  lines.push(c.dim(statusLine(result)));
  if (result.verificationLine) lines.push(c.dim(result.verificationLine));
  if (items.length === 0) lines.push(c.dim(`See every answer: headcount answers ${result.questionId}`));
  return lines;
}

function extraOf(item: ChartItem, pairwise: boolean, ranking: boolean): string {
  const parts: string[] = [];
  if (item.low !== undefined && item.high !== undefined) parts.push(`(${interval(item.low, item.high)})`);
  if (pairwise && item.strength !== undefined) parts.push(`strength ${item.strength.toFixed(2)}`);
  if (ranking && item.averageRank !== undefined) parts.push(`avg rank ${item.averageRank.toFixed(1)}`);
  return parts.join('  ');
}

/** "Complete · 10 of 10 answers · confidence medium · 120 credits spent". */
export function statusLine(result: ChartResult): string {
  const parts = [STATUS_WORDS[result.status] ?? result.status, `${result.nAccepted} of ${result.nRequested} answers`];
  if (result.summary.confidence) parts.push(`confidence ${result.summary.confidence}`);
  parts.push(`${result.creditsSpent} credits spent`);
  if (result.refundCredits > 0) parts.push(`${result.refundCredits} refunded`);
  return parts.join(' · ');
}
