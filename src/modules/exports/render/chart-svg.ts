import { layoutChart, type ChartFit } from './chart-layout.ts';
import { textBlock, type Drawn } from './chart-rows.ts';
import { header, questionBlock, simulatedBand } from './chrome.ts';
import { DEFAULT_EXPORT_SIZE, EXPORT_SIZES, type ChartInput, type ExportSize } from './render.types.ts';
import { COLORS, shiftShapes, toSvg, type Shape } from './shapes.ts';
import { fill, simulatedShare, wordsFor, type Wording } from './words.ts';

/**
 * The result as an image to post or put on a slide (spec Exports: export.png, sizes square, wide
 * and story): the Headcount mark, the question, how many answered, the chart, the summary note
 * and the verification line, on the site's colours. Square and story stack everything; wide puts
 * the words on the left and the chart on the right, as a slide does.
 *
 * The text sizes are chosen, not fixed: a long question or many options first shrink the
 * question and the note (levels below), so the chart keeps room to be read.
 */
interface Sizes {
  pad: number;
  mark: number;
  /** Question text sizes to try, largest first, and the lines allowed at each. */
  question: Array<[size: number, lines: number]>;
  meta: number;
  note: number;
  noteLines: number;
  verify: number;
  verifyLines: number;
  contextLines: number;
  chart: ChartFit;
}

const SIZES: Record<ExportSize, Sizes> = {
  square: { pad: 72, mark: 44, question: [[52, 3], [44, 4], [38, 5]], meta: 26, note: 27, noteLines: 3, verify: 21, verifyLines: 2, contextLines: 1, chart: { max: 34, min: 17 } },
  story: { pad: 90, mark: 56, question: [[68, 4], [58, 5], [50, 6]], meta: 34, note: 36, noteLines: 5, verify: 27, verifyLines: 3, contextLines: 2, chart: { max: 54, min: 22 } },
  wide: { pad: 52, mark: 36, question: [[40, 4], [34, 5], [29, 7]], meta: 21, note: 21, noteLines: 6, verify: 16, verifyLines: 3, contextLines: 2, chart: { max: 28, min: 13 } },
};

/** How much the words give up for the chart: 0 is everything, 2 the least. */
const LEVELS = [0, 1, 2] as const;

/** The words above the chart: mark, simulated band, question, context, how many answered. */
function topBlock(input: ChartInput, x: number, y: number, w: number, s: Sizes, level: number, f: Wording): Drawn {
  const { question, result } = input;
  const shapes: Shape[] = [];
  let at = y;
  const add = (drawn: Drawn, gap: number) => {
    shapes.push(...drawn.shapes);
    at += drawn.height + (drawn.height ? gap : 0);
  };
  add(header(x, at, w, s.mark, s.meta, input, f), s.mark * 0.65);
  const simulated = simulatedShare(result);
  if (simulated) add(simulatedBand(x, at, w, s.meta * 0.85, f, simulated), s.meta * 0.8);
  add(questionBlock(question.text, x, at, w, s.question, level), s.meta * 0.45);
  if (question.context && level === 0) add(textBlock(question.context, x, at, w, { size: s.meta, weight: 'regular', fill: COLORS.muted, maxLines: s.contextLines }), s.meta * 0.3);
  add(textBlock(fill(f.w.received, { n: f.int(result.nAccepted), total: f.int(result.nRequested) }), x, at, w, { size: s.meta, weight: 'regular', fill: COLORS.muted, maxLines: 1 }), 0);
  return { shapes, height: at - y };
}

/** The words under the chart, laid out upwards from `bottom`: the summary note on a soft card, then the verification line. */
function bottomBlock(input: ChartInput, x: number, bottom: number, w: number, s: Sizes, level: number): Drawn {
  const { result } = input;
  const verify = textBlock(result.verificationLine, x, 0, w, { size: s.verify, weight: 'regular', fill: COLORS.muted, maxLines: Math.max(1, s.verifyLines - level) });
  const shapes: Shape[] = [];
  let top = bottom - verify.height;
  shapes.push(...shiftShapes(verify.shapes, top));
  top -= s.verify * 0.9;
  shapes.push({ kind: 'line', x1: x, y1: top, x2: x + w, y2: top, stroke: COLORS.line, width: 2 });
  // With no answers the chart already says so; a note saying it again is noise.
  const note = result.nAccepted > 0 ? result.summary.note.trim() : '';
  if (note) {
    const pad = s.note * 0.8;
    const text = textBlock(note, x + pad, 0, w - pad * 2, { size: s.note, weight: 'regular', fill: COLORS.text, maxLines: Math.max(1, s.noteLines - level) });
    const h = text.height + pad * 2;
    top -= s.verify * 0.9 + h;
    shapes.push({ kind: 'rect', x, y: top, w, h, r: s.note * 0.6, fill: COLORS.accentSoft });
    shapes.push(...shiftShapes(text.shapes, top + pad));
  }
  return { shapes, height: bottom - top };
}

/**
 * The chart's text should not come out much smaller than its largest size just because the
 * question or the note is long: below this share of the range, the words give up room first.
 */
const COMFORT = 0.45;

function stacked(input: ChartInput, size: 'square' | 'story', f: Wording): Shape[] {
  const { width, height } = EXPORT_SIZES[size];
  const s = SIZES[size];
  const w = width - s.pad * 2;
  const comfortable = s.chart.min + (s.chart.max - s.chart.min) * COMFORT;
  let best: { shapes: Shape[]; size: number } | null = null;
  for (const level of LEVELS) {
    const top = topBlock(input, s.pad, s.pad, w, s, level, f);
    const bottom = bottomBlock(input, s.pad, height - s.pad, w, s, level);
    const gap = s.meta * 1.4;
    const box = { x: s.pad, y: s.pad + top.height + gap, w, h: height - s.pad * 2 - top.height - bottom.height - gap * 2 };
    const chart = layoutChart(input, box, s.chart, f);
    // A square keeps the chart near the question (a third of the spare room above it); a story centres it.
    const spare = Math.max(0, box.h - chart.height);
    const shapes = [...top.shapes, ...shiftShapes(chart.shapes, spare / (size === 'story' ? 2 : 3)), ...bottom.shapes];
    const score = chart.fits ? chart.size : 0;
    if (!best || score > best.size) best = { shapes, size: score };
    if (chart.fits && chart.size >= comfortable) break;
  }
  return best!.shapes;
}

function wide(input: ChartInput, f: Wording): Shape[] {
  const { width, height } = EXPORT_SIZES.wide;
  const s = SIZES.wide;
  const leftW = 440;
  const gap = 56;
  const panelX = s.pad + leftW + gap - 28;
  const chartBox = { x: panelX + 28, y: s.pad, w: width - panelX - 28 - s.pad, h: height - s.pad * 2 };
  const chart = layoutChart(input, chartBox, s.chart, f);
  const spare = Math.max(0, chartBox.h - chart.height);
  for (const level of LEVELS) {
    const top = topBlock(input, s.pad, s.pad, leftW, s, level, f);
    const bottom = bottomBlock(input, s.pad, height - s.pad, leftW, s, level);
    if (top.height + bottom.height + s.meta <= height - s.pad * 2 || level === LEVELS[LEVELS.length - 1]) {
      return [
        // The chart on a soft panel, the full height of the image, like the result card of the page.
        { kind: 'rect', x: panelX, y: 0, w: width - panelX, h: height, fill: COLORS.bg },
        ...top.shapes,
        ...bottom.shapes,
        ...shiftShapes(chart.shapes, spare / 2),
      ];
    }
  }
  return [];
}

/** The result drawn as an SVG document of the export size (1080 × 1080, 1200 × 675 or 1080 × 1920 px). */
export function chartSvg(input: ChartInput, size: ExportSize = DEFAULT_EXPORT_SIZE): string {
  const f = wordsFor(input.question.language);
  const { width, height } = EXPORT_SIZES[size];
  const shapes = size === 'wide' ? wide(input, f) : stacked(input, size, f);
  const background: Shape[] = [{ kind: 'rect', x: 0, y: 0, w: width, h: height, fill: COLORS.card }];
  return toSvg(width, height, [...background, ...shapes], input.question.text);
}
