import { textBlock, type Drawn } from './chart-rows.ts';
import type { ChartInput } from './render.types.ts';
import { COLORS, markShapes } from './shapes.ts';
import { measure, wrapText } from './text-measure.ts';
import type { Wording } from './words.ts';

/*
 * What frames the chart in the PNG and the PDF alike: the mark, the "still collecting" pill, the
 * simulated band, the question.
 */

/** The mark and "Headcount", and at the right a pill while answers are still coming in. */
export function header(x: number, y: number, w: number, mark: number, meta: number, input: ChartInput, f: Wording): Drawn {
  const shapes = markShapes(x, y, mark);
  shapes.push({ kind: 'text', x: x + mark * 1.3, y: y + mark * 0.7, text: 'Headcount', size: mark * 0.62, weight: 'bold', fill: COLORS.text });
  if (input.result.status === 'in_progress') {
    const size = meta * 0.78;
    const text = f.w.collecting;
    const pw = measure(text, { size, weight: 'bold' }) + size * 2.7;
    const ph = size * 2;
    const top = y + (mark - ph) / 2;
    shapes.push({ kind: 'rect', x: x + w - pw, y: top, w: pw, h: ph, r: ph / 2, fill: COLORS.successSoft });
    shapes.push({ kind: 'circle', cx: x + w - pw + size * 0.95, cy: top + ph / 2, r: size * 0.25, fill: COLORS.success });
    shapes.push({ kind: 'text', x: x + w - size * 0.85, y: top + ph / 2 + size * 0.36, text, size, weight: 'bold', fill: COLORS.success, anchor: 'end' });
  }
  return { shapes, height: mark };
}

/** A red band saying the answers (all, or some) are simulated: such an image must never pass for real people's answers. */
export function simulatedBand(x: number, y: number, w: number, size: number, f: Wording, share: 'all' | 'some'): Drawn {
  const text = textBlock(share === 'all' ? f.w.simulated : f.w.someSimulated, x + size * 0.9, y + size * 0.55, w - size * 1.8, { size, weight: 'bold', fill: COLORS.danger, maxLines: 2 });
  const h = text.height + size * 1.1;
  return { shapes: [{ kind: 'rect', x, y, w, h, r: size * 0.5, fill: COLORS.dangerSoft }, { kind: 'rect', x, y, w: size * 0.3, h, fill: COLORS.danger }, ...text.shapes], height: h };
}

/** The question at the largest size whose text fits its lines whole; past that, the smallest size and an ellipsis. */
export function questionBlock(text: string, x: number, y: number, w: number, choices: Array<[size: number, lines: number]>, level: number): Drawn {
  const allowed = choices.map(([size, lines]) => [size, Math.max(2, lines - level)] as const);
  for (const [size, lines] of allowed) {
    const wrapped = wrapText(text, { size, weight: 'bold' }, w, lines + 1);
    if (wrapped.length <= lines) return textBlock(text, x, y, w, { size, weight: 'bold', fill: COLORS.text, maxLines: lines });
  }
  const [size, lines] = allowed[allowed.length - 1];
  return textBlock(text, x, y, w, { size, weight: 'bold', fill: COLORS.text, maxLines: lines });
}

