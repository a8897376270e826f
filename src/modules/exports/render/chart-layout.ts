import { NEITHER_LABEL } from '../../draft/answer-format.ts';
import type { Question } from '../../questions/questions.schemas.ts';
import type { Result } from '../../results/results.schemas.ts';
import { bar, inlineLabel, inlineRow, inlineRowHeight, stackedRow, stackedRowHeight, textBlock, textLine, type Box, type Drawn, type RowSpec } from './chart-rows.ts';
import type { ChartInput } from './render.types.ts';
import { COLORS, type Shape } from './shapes.ts';
import { ELLIPSIS, firstBaseline, measure } from './text-measure.ts';
import { fill, type Wording } from './words.ts';

/**
 * The chart of a result, per question type, the way the public results page shows it
 * (src/web/results-page/results-page.html.ts): bars in the question's order for the choice-like
 * types, ranked lists for ranking and pairwise, the average over the 1–5 bars, the count of
 * written answers with their themes or a few of them for free text, taps and busiest areas for a
 * click test. It is laid out into a box at the largest text size that fits, then, for many options
 * in little room, with each row on one line.
 */
type Item = Result['distribution'][number];

/** The label text size range to try, largest first. */
export interface ChartFit {
  max: number;
  min: number;
}

export interface ChartOptions {
  /** Free text with no themes: show a few written answers (default). The PDF lists the answers below the chart instead. */
  quotes?: boolean;
}

/** What a chart holds, before sizes are chosen. */
interface Plan {
  hint?: string;
  lead?: (x: number, y: number, w: number, b: number) => Drawn;
  rows: RowSpec[];
  /** Fills what room is left under the rows (free text answers). */
  rest?: (box: Box, b: number) => Drawn;
}

/** An A/B image option with no words is named by its letter, as the answer page shows it. */
const letterLabel = (question: Question, index: number) => question.options[index]?.label || String.fromCharCode(65 + index);

/** What an option is called in the export: yes/mostly/no and "Neither" in the question's language, a letter for an unnamed A/B image. */
export function optionLabel(question: Question, f: Wording, item: Item, index: number): string {
  if (question.type === 'yes_mostly_no') {
    const fixed = ['yes', 'mostly', 'no'].indexOf(item.option.toLowerCase());
    return [f.w.yes, f.w.mostly, f.w.no][fixed >= 0 ? fixed : index] ?? item.option;
  }
  if (question.neither && (index === question.options.length || item.option === NEITHER_LABEL)) return f.w.neither;
  if (question.type === 'ab_image' && !item.option) return letterLabel(question, index);
  return item.option;
}

/** Items best first (rank, then the number that ranks them), each with its index in the question's options. */
function byRank(result: Result, key: (item: Item) => number): Array<{ item: Item; index: number }> {
  return result.distribution
    .map((item, index) => ({ item, index }))
    .sort((a, b) => (a.item.rank ?? Infinity) - (b.item.rank ?? Infinity) || key(a.item) - key(b.item) || a.index - b.index);
}

const intervalOf = (item: Item) => (item.low !== undefined && item.high !== undefined ? { low: item.low, high: item.high } : undefined);

function choiceRows({ question, result }: ChartInput, f: Wording): RowSpec[] {
  const winner = result.summary.winner;
  return result.distribution.map((item, i) => ({
    label: optionLabel(question, f, item, i),
    figure: f.pct(item.share),
    aside: f.answers(item.count),
    share: item.share,
    // The leader in the accent, the rest lighter; with no leader every bar is the accent.
    color: winner === null || item.option === winner ? COLORS.accent : COLORS.accentMid,
    interval: intervalOf(item),
  }));
}

/** "Average" over a large mean and "/ 5": the first thing a 1–5 result is read for. */
function meanLead(mean: number, f: Wording) {
  return (x: number, y: number, _w: number, b: number): Drawn => {
    const small = b * 0.8;
    const big = b * 2.4;
    const top = y + firstBaseline(f.w.average, small);
    const base = top + big * 0.95 + b * 0.15;
    const value = f.dec(mean);
    const valueW = measure(value, { size: big, weight: 'bold' });
    const shapes: Shape[] = [
      { kind: 'text', x, y: top, text: f.w.average, size: small, weight: 'regular', fill: COLORS.muted },
      { kind: 'text', x, y: base, text: value, size: big, weight: 'bold', fill: COLORS.accent },
      { kind: 'text', x: x + valueW + b * 0.3, y: base, text: '/ 5', size: b * 1.2, weight: 'bold', fill: COLORS.muted },
    ];
    return { shapes, height: base - y + big * 0.3 };
  };
}

/** A figure on its own lines ("Taps: 1,204"). */
function figureLead(text: string) {
  return (x: number, y: number, w: number, b: number): Drawn => textBlock(text, x, y, w, { size: b * 1.2, weight: 'bold', fill: COLORS.text, maxLines: 2 });
}

/** Written answers as quote cards, pinned first, as many as fit. */
function quoteCards(result: Result) {
  const answers = [...result.answers.filter((a) => a.pinned), ...result.answers.filter((a) => !a.pinned)].filter((a) => (a.text ?? '').trim());
  return (box: Box, b: number): Drawn => {
    const shapes: Shape[] = [];
    let y = box.y;
    const size = b * 0.9;
    const pad = b * 0.6;
    for (const answer of answers.slice(0, 6)) {
      const text = textBlock(`“${answer.text!.trim()}”`, box.x + pad * 1.6, 0, box.w - pad * 2.6, { size, weight: 'regular', fill: COLORS.text, maxLines: 3 });
      const h = text.height + pad * 2;
      if (y + h > box.y + box.h) break;
      shapes.push({ kind: 'rect', x: box.x, y, w: box.w, h, r: b * 0.5, fill: COLORS.bg });
      shapes.push({ kind: 'rect', x: box.x + pad * 0.55, y: y + pad * 0.7, w: b * 0.2, h: h - pad * 1.4, r: b * 0.1, fill: answer.pinned ? COLORS.accent : COLORS.line });
      for (const shape of text.shapes) if (shape.kind === 'text') shapes.push({ ...shape, y: shape.y + y + pad });
      y += h + b * 0.5;
    }
    return { shapes, height: y - box.y };
  };
}

function planFor(input: ChartInput, f: Wording, options: ChartOptions): Plan {
  const { question, result } = input;
  const w = f.w;
  switch (question.type) {
    case 'multi_choice':
      return { hint: w.multiHint, rows: choiceRows(input, f) };
    case 'scale_1_5':
      return { hint: w.scaleHint, lead: result.mean === null ? undefined : meanLead(result.mean, f), rows: choiceRows(input, f) };
    case 'ranking':
      return {
        hint: w.rankingHint,
        rows: byRank(result, (item) => item.averageRank ?? Infinity).map(({ item, index }) => ({
          label: optionLabel(question, f, item, index),
          // The number on the right, its words under the label: a label keeps the room it needs.
          figure: item.averageRank === undefined ? '' : f.dec(item.averageRank),
          detail: [
            item.averageRank === undefined ? null : fill(w.averageRank, { avg: f.dec(item.averageRank) }),
            `${fill(w.rankedFirst, { count: f.answers(item.count) })} (${f.pct(item.share)})`,
          ].filter(Boolean).join(' · '),
          // No bar, as on the page: the order is the result, and a bar of "ranked first" would read as the rank.
          share: null,
          color: COLORS.accent,
          badge: item.rank === undefined ? undefined : { label: String(item.rank), first: item.rank === 1 },
        })),
      };
    case 'pairwise':
      return {
        hint: w.pairHint,
        rows: byRank(result, (item) => -(item.strength ?? 0)).map(({ item, index }) => ({
          label: optionLabel(question, f, item, index),
          figure: f.pct(item.strength ?? 0),
          detail: fill(w.wins, { wins: f.int(item.count), shown: f.int(item.appearances ?? 0) }),
          share: item.strength ?? 0,
          color: item.rank === 1 ? COLORS.accent : COLORS.accentMid,
          badge: item.rank === undefined ? undefined : { label: String(item.rank), first: item.rank === 1 },
        })),
      };
    case 'free_text': {
      const themes = result.insights?.themes ?? [];
      const lead = figureLead(fill(w.written, { n: f.int(result.nAccepted) }));
      if (themes.length) {
        return {
          hint: w.themes,
          lead,
          rows: themes.map((theme, i) => ({
            label: theme.label,
            figure: f.pct(theme.share),
            aside: f.answers(theme.count),
            detail: theme.quotes[0] ? `“${theme.quotes[0]}”` : undefined,
            share: theme.share,
            color: i === 0 ? COLORS.accent : COLORS.accentMid,
          })),
        };
      }
      return { lead, rows: [], rest: options.quotes === false ? undefined : quoteCards(result) };
    }
    case 'click_test': {
      const clicks = result.clicks;
      const centre = (at: number, size: number) => Math.round((at + size / 2) * 100);
      return {
        lead: figureLead(fill(w.taps, { n: f.int(clicks?.taps ?? 0) })),
        hint: clicks?.hotspots.length ? w.hotspots : undefined,
        rows: (clicks?.hotspots ?? []).map((h, i) => {
          const where = fill(w.hotspotWhere, { x: centre(h.x, h.w), y: centre(h.y, h.h) });
          return {
            label: where.charAt(0).toUpperCase() + where.slice(1),
            figure: f.pct(h.share),
            aside: fill(w.taps, { n: f.int(h.count) }),
            share: h.share,
            color: i === 0 ? COLORS.accent : COLORS.accentMid,
            badge: { label: String(i + 1), first: i === 0 },
          };
        }),
      };
    }
    default:
      return { rows: choiceRows(input, f) };
  }
}

/** The "No answers yet" state: a dashed frame with the words in it, where the chart will be. */
function emptyState(box: Box, b: number, f: Wording): Drawn {
  const h = Math.min(box.h, b * 6);
  const size = b * 1.3;
  const shapes: Shape[] = [{ kind: 'rect', x: box.x, y: box.y, w: box.w, h, r: b * 0.8, fill: COLORS.bg, stroke: COLORS.line, strokeWidth: Math.max(1, b * 0.1), dash: b * 0.4 }];
  const title = textLine(f.w.noAnswers, box.x + box.w / 2, box.y + h / 2 + size * 0.36, box.w - b * 2, size, 'bold', COLORS.muted, 'middle');
  if (title) shapes.push(title);
  return { shapes, height: h };
}

/** The legend of the whiskers, so a reader knows what the thin lines are. */
function legend(x: number, y: number, w: number, size: number, f: Wording): Drawn {
  const glyph = size * 2;
  const shapes: Shape[] = bar({ x, y: y + size * 0.15, w: glyph, h: size * 0.8 }, 0, COLORS.accent, { low: 0.15, high: 0.85 }).slice(1);
  const line = textLine(f.w.interval, x + glyph + size * 0.6, y + size * 0.85, w - glyph - size * 0.6, size, 'regular', COLORS.muted);
  if (line) shapes.push(line);
  return { shapes, height: size * 1.3 };
}

/**
 * Draws the plan at label size `b`; `inline` puts each row on one line. Returns null when it does
 * not fit `box`. Hints and the legend are smaller than the labels, but never below `small`.
 */
function drawPlan(plan: Plan, box: Box, b: number, inline: boolean, f: Wording, small: number, force = false, whole = false): Drawn | null {
  const note = Math.max(small, b * 0.7);
  const shapes: Shape[] = [];
  let y = box.y;
  const bottom = box.y + box.h;
  if (plan.lead) {
    const lead = plan.lead(box.x, y, box.w, b);
    shapes.push(...lead.shapes);
    y += lead.height + b * 0.4;
  }
  if (plan.hint) {
    const hint = textBlock(plan.hint, box.x, y, box.w, { size: note, weight: 'regular', fill: COLORS.muted, maxLines: 2 });
    shapes.push(...hint.shapes);
    y += hint.height + b * 0.7;
  }
  const withInterval = plan.rows.some((row) => row.interval && row.share !== null);
  const legendH = withInterval ? note * 1.3 + b * 0.6 : 0;
  if (inline) {
    const rowGap = b * 0.5;
    const badgeW = plan.rows.some((r) => r.badge) ? b * 1.9 : 0;
    const figureW = Math.max(...plan.rows.map((r) => measure(r.figure, { size: b, weight: 'bold' })));
    // As wide as the longest label needs, but the bars keep at least 30% of the width.
    const longest = Math.max(...plan.rows.map((r) => measure(r.label, { size: b, weight: 'regular' }))) / 0.98 + b * 0.2;
    const labelW = Math.min(badgeW + longest, box.w * 0.7 - figureW - b * 1.2);
    const lines = plan.rows.map((row) => inlineLabel(row.label, b, labelW - badgeW));
    if (whole && lines.some((l) => l[l.length - 1]?.endsWith(ELLIPSIS))) return null;
    for (const [i, row] of plan.rows.entries()) {
      const h = inlineRowHeight(row.label, lines[i].length, b);
      if (!force && y + h > bottom - legendH) return null;
      if (y + h > bottom - legendH) break;
      const drawn = inlineRow(row, { x: box.x, y, w: box.w, h }, b, labelW, figureW);
      shapes.push(...drawn.shapes);
      y += drawn.height + rowGap;
    }
  } else {
    const after = b * 0.95;
    for (const row of plan.rows) {
      const h = stackedRowHeight(row, box.w, b);
      if (!force && y + h > bottom - legendH) return null;
      if (y + h > bottom - legendH) break;
      const drawn = stackedRow(row, { x: box.x, y, w: box.w, h }, b);
      shapes.push(...drawn.shapes);
      y += drawn.height + after;
    }
  }
  if (plan.rest) {
    const rest = plan.rest({ x: box.x, y, w: box.w, h: bottom - y }, b);
    shapes.push(...rest.shapes);
    y += rest.height;
  }
  if (withInterval) {
    const drawn = legend(box.x, y + b * 0.2, box.w, note, f);
    shapes.push(...drawn.shapes);
    y += drawn.height + b * 0.2;
  }
  return { shapes, height: y - box.y };
}

/**
 * The chart of `input` laid out in `box`: the largest label size in `fit` at which every row fits
 * stacked, else on one line each, else the smallest size with the rows that fit. `size` is the
 * label size chosen, so a caller can give the chart more room when it came out small.
 */
export function layoutChart(input: ChartInput, box: Box, fit: ChartFit, f: Wording, options: ChartOptions = {}): Drawn & { fits: boolean; size: number } {
  if (input.result.nAccepted === 0) return { ...emptyState(box, fit.max, f), fits: true, size: fit.max };
  const plan = planFor(input, f, options);
  const small = fit.min * 0.85;
  const step = Math.max(0.5, (fit.max - fit.min) / 16);
  // Stacked rows read best down to a little over the smallest size; past that, one line per row keeps the text larger.
  const stackedMin = plan.rows.length > 4 ? fit.min + (fit.max - fit.min) * 0.35 : fit.min;
  for (let b = fit.max; b >= stackedMin - 1e-9; b -= step) {
    const drawn = drawPlan(plan, box, b, false, f, small);
    if (drawn) return { ...drawn, fits: true, size: b };
  }
  // One line per row: first at a size where every label shows whole, then at any size.
  for (const whole of [true, false]) {
    if (!plan.rows.length) break;
    // Whole labels are worth a smaller size, down to a little under the middle of the range.
    const lowest = whole ? fit.min + (fit.max - fit.min) * 0.4 : fit.min;
    for (let b = fit.max; b >= lowest - 1e-9; b -= step) {
      const drawn = drawPlan(plan, box, b, true, f, small, false, whole);
      if (drawn) return { ...drawn, fits: true, size: b };
    }
  }
  return { ...drawPlan(plan, box, fit.min, plan.rows.length > 0, f, small, true)!, fits: false, size: fit.min };
}
