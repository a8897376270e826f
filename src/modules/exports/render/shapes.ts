import type { Weight } from './fonts.ts';
import { glyphOutline, shapeLine, unitsPerEm } from './glyphs.ts';
import { scriptOf } from './text-measure.ts';

/**
 * What an export is drawn from: a flat list of boxes, lines, dots and text lines, laid out once
 * (chart-layout.ts) and painted by two painters, SVG for the PNG (toSvg below) and pdfkit for the
 * PDF (pdf-painter.ts), so the chart on a slide and in the PDF are the same drawing. Units are
 * the painter's: px in the SVG, pt in the PDF. Text is already cleaned and cut to fit.
 */
export type Shape =
  | { kind: 'rect'; x: number; y: number; w: number; h: number; r?: number; fill?: string; stroke?: string; strokeWidth?: number; dash?: number }
  | { kind: 'line'; x1: number; y1: number; x2: number; y2: number; stroke: string; width: number; round?: boolean }
  | { kind: 'circle'; cx: number; cy: number; r: number; fill: string }
  | { kind: 'path'; d: string; fill: string; x: number; y: number; scale: number }
  /** One line of text; `y` is its baseline. */
  | { kind: 'text'; x: number; y: number; text: string; size: number; weight: Weight; fill: string; anchor?: 'start' | 'middle' | 'end' };

export type TextShape = Extract<Shape, { kind: 'text' }>;

/** The light theme of the site (src/web/shared/assets/answer.css), so an export looks like the page it came from. */
export const COLORS = {
  bg: '#f5f6fa',
  card: '#ffffff',
  text: '#181b26',
  muted: '#565d70',
  line: '#d3d7e2',
  accent: '#3342c8',
  accentSoft: '#eaedff',
  // The other bars: the accent lightened so the leader stands out and every bar still reads on white (3:1).
  accentMid: '#7c87e0',
  deep: '#0a1a8f',
  danger: '#a8261b',
  dangerSoft: '#fdecea',
  success: '#1d7443',
  successSoft: '#e2f4e9',
} as const;

/** The Headcount icon (src/web/shared/assets/icon.svg), on a 32-unit grid. */
export function markShapes(x: number, y: number, size: number): Shape[] {
  const s = size / 32;
  return [
    { kind: 'rect', x, y, w: size, h: size, r: 8 * s, fill: COLORS.accent },
    { kind: 'circle', cx: x + 16 * s, cy: y + 12 * s, r: 5 * s, fill: '#ffffff' },
    { kind: 'path', d: 'M7 26c1.5-5 5-7.5 9-7.5s7.5 2.5 9 7.5', fill: '#ffffff', x, y, scale: s },
  ];
}

/*
 * XML 1.0 allows neither controls nor lone surrogates, even escaped; resvg refuses the whole
 * document if one slips in, so they are dropped as well as the five markup characters escaped.
 */
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|\p{Cs}/gu;
export const escapeXml = (text: string): string =>
  text
    .replace(XML_INVALID, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');

const n = (v: number) => String(Math.round(v * 100) / 100);

function shapeSvg(shape: Shape, used: Set<string>): string {
  switch (shape.kind) {
    case 'rect': {
      const paint = `fill="${shape.fill ?? 'none'}"${shape.stroke ? ` stroke="${shape.stroke}" stroke-width="${n(shape.strokeWidth ?? 1)}"` : ''}${shape.dash ? ` stroke-dasharray="${n(shape.dash)} ${n(shape.dash)}"` : ''}`;
      return `<rect x="${n(shape.x)}" y="${n(shape.y)}" width="${n(Math.max(0, shape.w))}" height="${n(Math.max(0, shape.h))}"${shape.r ? ` rx="${n(shape.r)}"` : ''} ${paint}/>`;
    }
    case 'line':
      return `<line x1="${n(shape.x1)}" y1="${n(shape.y1)}" x2="${n(shape.x2)}" y2="${n(shape.y2)}" stroke="${shape.stroke}" stroke-width="${n(shape.width)}"${shape.round ? ' stroke-linecap="round"' : ''}/>`;
    case 'circle':
      return `<circle cx="${n(shape.cx)}" cy="${n(shape.cy)}" r="${n(shape.r)}" fill="${shape.fill}"/>`;
    case 'path':
      return `<path transform="translate(${n(shape.x)} ${n(shape.y)}) scale(${n(shape.scale)})" d="${shape.d}" fill="${shape.fill}"/>`;
    case 'text':
      return textSvg(shape, used);
  }
}

/**
 * A line of text as its glyphs (see glyphs.ts for why not <text>): each glyph a <use> of its
 * outline in <defs>, flipped from the font's y-up units; the words stay in aria-label.
 */
function textSvg(shape: TextShape, used: Set<string>): string {
  const line = shapeLine(shape.text, scriptOf(shape.text), shape.weight);
  const width = line.advance * shape.size;
  const left = shape.x - (shape.anchor === 'end' ? width : shape.anchor === 'middle' ? width / 2 : 0);
  const uses: string[] = [];
  for (const glyph of line.glyphs) {
    if (!glyphOutline(glyph.key)) continue;
    used.add(glyph.key);
    const s = shape.size / unitsPerEm(glyph.key);
    uses.push(`<use xlink:href="#${glyph.key}" transform="translate(${n(left + glyph.x * shape.size)} ${n(shape.y - glyph.y * shape.size)}) scale(${s.toFixed(5)} ${(-s).toFixed(5)})"/>`);
  }
  return `<g fill="${shape.fill}" role="img" aria-label="${escapeXml(shape.text)}">${uses.join('')}</g>`;
}

/** A whole SVG document of `width` × `height` from shapes painted in order. */
export function toSvg(width: number, height: number, shapes: Shape[], title: string): string {
  const used = new Set<string>();
  const body = shapes.map((shape) => shapeSvg(shape, used));
  const defs = [...used].map((key) => `<path id="${key}" d="${glyphOutline(key)}"/>`);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<title>${escapeXml(title)}</title>`,
    `<defs>${defs.join('')}</defs>`,
    ...body,
    '</svg>',
  ].join('\n');
}

/** The same shapes moved down by `dy` (a block laid out at the top of its room, then centred in it). */
export function shiftShapes(shapes: Shape[], dy: number): Shape[] {
  if (!dy) return shapes;
  return shapes.map((s) => {
    switch (s.kind) {
      case 'line':
        return { ...s, y1: s.y1 + dy, y2: s.y2 + dy };
      case 'circle':
        return { ...s, cy: s.cy + dy };
      default:
        return { ...s, y: s.y + dy };
    }
  });
}
