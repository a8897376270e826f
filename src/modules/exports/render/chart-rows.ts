import { COLORS, type Shape, type TextShape } from './shapes.ts';
import { firstBaseline, fitLine, lineHeight, measure, wrapText, type TextStyle } from './text-measure.ts';
import type { Weight } from './fonts.ts';

/**
 * The pieces every chart is built of: a block of wrapped text, a bar with its 95% whisker, a row
 * (label, figure, bar, detail) and a rank badge. Each returns its shapes and the height it took,
 * so a layout can try a size, see whether it fits, and try a smaller one.
 */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}
export interface Drawn {
  shapes: Shape[];
  height: number;
}

/** Wrapped text from `y` down: at most `maxLines` lines; the height includes the last line's descent. */
export function textBlock(text: string, x: number, y: number, width: number, style: TextStyle & { fill: string; maxLines: number; anchor?: 'start' | 'middle' | 'end' }): Drawn {
  const lines = wrapText(text, style, width, style.maxLines);
  if (!lines.length) return { shapes: [], height: 0 };
  const step = lineHeight(lines.join(' '), style.size);
  const first = firstBaseline(lines.join(' '), style.size);
  const shapes: Shape[] = lines.map((line, i) => ({ kind: 'text', x, y: y + first + i * step, text: line, size: style.size, weight: style.weight, fill: style.fill, anchor: style.anchor }));
  return { shapes, height: (lines.length - 1) * step + first + style.size * 0.3 };
}

/** One line cut to `width`, baseline at `y`. */
export function textLine(text: string, x: number, y: number, width: number, size: number, weight: Weight, fill: string, anchor: 'start' | 'middle' | 'end' = 'start'): TextShape | null {
  const line = fitLine(text, { size, weight }, width);
  return line ? { kind: 'text', x, y, text: line, size, weight, fill, anchor } : null;
}

export interface Interval {
  low: number;
  high: number;
}

const clamp01 = (v: number) => (Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0);

/**
 * A bar of `share` (0–1) on a soft track, and over it the 95% interval as a thin dark whisker
 * with end ticks, on a white halo so it reads on the filled part and on the track alike.
 */
export function bar(box: Box, share: number, color: string, interval?: Interval): Shape[] {
  const { x, y, w, h } = box;
  const r = h / 2;
  const shapes: Shape[] = [{ kind: 'rect', x, y, w, h, r, fill: COLORS.accentSoft }];
  const s = clamp01(share);
  // A small share still shows as a dot the height of the bar; 0 shows no fill at all.
  if (s > 0) shapes.push({ kind: 'rect', x, y, w: Math.max(h, s * w), h, r, fill: color });
  if (interval) {
    const lo = x + clamp01(interval.low) * w;
    const hi = x + clamp01(interval.high) * w;
    const mid = y + h / 2;
    const thin = Math.max(1.2, h * 0.1);
    const halo = thin + Math.max(2, h * 0.14);
    const tick = h * 0.38;
    for (const [width, stroke] of [[halo, '#ffffff'], [thin, COLORS.text]] as const) {
      shapes.push({ kind: 'line', x1: lo, y1: mid, x2: hi, y2: mid, stroke, width, round: true });
      shapes.push({ kind: 'line', x1: lo, y1: mid - tick, x2: lo, y2: mid + tick, stroke, width, round: true });
      shapes.push({ kind: 'line', x1: hi, y1: mid - tick, x2: hi, y2: mid + tick, stroke, width, round: true });
    }
  }
  return shapes;
}

/** A round badge with a rank or a number in it; the first place is filled. */
export function badge(cx: number, cy: number, r: number, label: string, first: boolean): Shape[] {
  return [
    { kind: 'circle', cx, cy, r, fill: first ? COLORS.accent : COLORS.accentSoft },
    { kind: 'text', x: cx, y: cy + r * 0.36, text: label, size: r * 1.0, weight: 'bold', fill: first ? '#ffffff' : COLORS.accent, anchor: 'middle' },
  ];
}

export interface RowSpec {
  label: string;
  /** The figure at the right end of the label line (a percentage, an average rank). */
  figure: string;
  /** Small muted words just before the figure ("23 answers"). */
  aside?: string;
  /** A muted line under the bar. */
  detail?: string;
  share: number | null;
  color: string;
  interval?: Interval;
  badge?: { label: string; first: boolean };
}

/** Sizes of a row, all from the label's size `b`. */
export const rowMetrics = (b: number) => ({ bar: b * 0.8, gap: b * 0.32, after: b * 0.95, detail: b * 0.72 });

/** Where a stacked row's parts go at width `w`: the label's lines (two at most) and whether the aside has room. */
function stackedPlan(spec: RowSpec, w: number, b: number) {
  const badgeW = spec.badge ? b * 2.16 : 0;
  const inner = w - badgeW;
  const figureW = measure(spec.figure, { size: b * 1.06, weight: 'bold' }) + (spec.figure ? b * 0.6 : 0);
  const asideSize = b * 0.78;
  const asideW = spec.aside ? measure(spec.aside, { size: asideSize, weight: 'regular' }) + b * 0.5 : 0;
  const style = { size: b, weight: 'regular' as const };
  // The aside ("23 answers") gives way before the label does: first the label on one line beside it, then without it.
  const withAside = spec.aside && measure(spec.label, style) <= (inner - figureW - asideW) * 0.98 && inner - figureW - asideW > inner * 0.3;
  const lines = wrapText(spec.label, style, inner - figureW - (withAside ? asideW : 0), 2);
  const m = rowMetrics(b);
  const labelH = lineHeight(spec.label, b) * Math.max(1, lines.length);
  const detailH = spec.detail ? lineHeight(spec.detail, m.detail) + b * 0.12 : 0;
  return { badgeW, inner, figureW, asideSize, withAside: Boolean(withAside), lines, labelH, height: labelH + (spec.share === null ? 0 : m.gap + m.bar) + detailH };
}

/** A row stacked: label (up to two lines) and figure, the bar under them, a detail line under the bar. */
export function stackedRow(spec: RowSpec, box: Box, b: number): Drawn {
  const m = rowMetrics(b);
  const plan = stackedPlan(spec, box.w, b);
  const shapes: Shape[] = [];
  const x = box.x + plan.badgeW;
  const w = plan.inner;
  if (spec.badge) {
    // Centred on the label and the bar together, the block the rank belongs to.
    const block = plan.labelH + (spec.share === null ? 0 : m.gap + m.bar);
    shapes.push(...badge(box.x + b * 0.78, box.y + block / 2, b * 0.78, spec.badge.label, spec.badge.first));
  }
  const step = lineHeight(spec.label, b);
  const base = box.y + firstBaseline(spec.label, b);
  if (spec.figure) shapes.push({ kind: 'text', x: x + w, y: base, text: spec.figure, size: b * 1.06, weight: 'bold', fill: COLORS.text, anchor: 'end' });
  if (plan.withAside && spec.aside) shapes.push({ kind: 'text', x: x + w - plan.figureW, y: base, text: spec.aside, size: plan.asideSize, weight: 'regular', fill: COLORS.muted, anchor: 'end' });
  plan.lines.forEach((line, i) => shapes.push({ kind: 'text', x, y: base + i * step, text: line, size: b, weight: 'regular', fill: COLORS.text }));
  let y = box.y + plan.labelH;
  if (spec.share !== null) {
    y += m.gap;
    shapes.push(...bar({ x, y, w, h: m.bar }, spec.share, spec.color, spec.interval));
    y += m.bar;
  }
  if (spec.detail) {
    const line = textLine(spec.detail, x, y + firstBaseline(spec.detail, m.detail) + b * 0.12, w, m.detail, 'regular', COLORS.muted);
    if (line) shapes.push(line);
    y += lineHeight(spec.detail, m.detail) + b * 0.12;
  }
  return { shapes, height: y - box.y };
}

/** The height a stacked row takes at width `w`, without drawing it. */
export function stackedRowHeight(spec: RowSpec, w: number, b: number): number {
  return stackedPlan(spec, w, b).height;
}

/** The label lines of an inline row: up to two, in the label column. */
export function inlineLabel(label: string, b: number, width: number): string[] {
  return wrapText(label, { size: b, weight: 'regular' }, width, 2);
}

/** The height of an inline row whose label takes `lines` lines. */
export const inlineRowHeight = (label: string, lines: number, b: number) => Math.max(lineHeight(label, b) * Math.max(1, lines), b * 1.2);

/**
 * A row on one line, for many options in little height: the label in a column on the left (two
 * lines at most), the bar in the middle, the figure on the right. `labelW` and `figureW` are shared
 * by all rows so the bars line up.
 */
export function inlineRow(spec: RowSpec, box: Box, b: number, labelW: number, figureW: number): Drawn {
  const badgeW = spec.badge ? b * 1.9 : 0;
  const lines = inlineLabel(spec.label, b, labelW - badgeW);
  const h = inlineRowHeight(spec.label, lines.length, b);
  const mid = box.y + h / 2;
  const shapes: Shape[] = [];
  if (spec.badge) shapes.push(...badge(box.x + b * 0.7, mid, b * 0.7, spec.badge.label, spec.badge.first));
  const step = lineHeight(spec.label, b);
  const first = mid - ((lines.length - 1) * step) / 2 + b * 0.36;
  lines.forEach((line, i) => shapes.push({ kind: 'text', x: box.x + badgeW, y: first + i * step, text: line, size: b, weight: 'regular', fill: COLORS.text }));
  const barX = box.x + labelW + b * 0.6;
  const barW = box.w - labelW - figureW - b * 1.2;
  if (spec.share !== null) shapes.push(...bar({ x: barX, y: mid - b * 0.38, w: barW, h: b * 0.76 }, spec.share, spec.color, spec.interval));
  shapes.push({ kind: 'text', x: box.x + box.w, y: mid + b * 0.36, text: spec.figure, size: b, weight: 'bold', fill: COLORS.text, anchor: 'end' });
  return { shapes, height: h };
}
