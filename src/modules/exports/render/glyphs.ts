import { measuringFont, type Script, type Weight } from './fonts.ts';

/**
 * Text turned into glyph outlines, for the PNG. resvg-js 2.6.2 misplaces the second glyph of a
 * Devanagari cluster (the aa-matra of "जवाब" lands on the next letter; fixed upstream in
 * linebender/resvg#1043, not in a resvg-js release), so the SVG carries no <text> at all: fontkit
 * shapes each line (the same shaping pdfkit uses for the PDF) and the SVG draws its glyphs as
 * paths. What is measured is then exactly what is drawn, and no font of the machine, nor resvg's
 * font fallback, can ever take part.
 */
export interface ShapedGlyph {
  /** Names the glyph's outline in the SVG's <defs>. */
  key: string;
  /** Pen position of the glyph, in em. */
  x: number;
  y: number;
}
export interface ShapedText {
  /** Total advance, in em. */
  advance: number;
  glyphs: ShapedGlyph[];
}

const shaped = new Map<string, ShapedText>();
const outlines = new Map<string, string>();
const CACHE = 5_000;

const glyphKey = (script: Script, weight: Weight, id: number) => `${script === 'latin' ? 'l' : 'd'}${weight === 'bold' ? 'b' : 'r'}${id}`;

const DEVANAGARI_CHAR = /[\u0900-\u097F\uA8E0-\uA8FF\u1CD0-\u1CFF]/u;
const LETTER = /[\p{L}\p{M}]/u;

/**
 * A line cut where its script changes: fontkit picks one shaper per call from the text's first
 * letters, so "Lead: फ़्लिपकार्ट" shaped whole would skip the Indic reordering and put the i-matra
 * after its consonant. Spaces, digits and punctuation stay with the run they follow.
 */
export function scriptRuns(text: string): Array<{ text: string; devanagari: boolean }> {
  const runs: Array<{ text: string; devanagari: boolean }> = [];
  let pending = '';
  for (const char of text) {
    const kind = DEVANAGARI_CHAR.test(char) ? true : LETTER.test(char) ? false : null;
    const last = runs[runs.length - 1];
    if (kind === null) {
      if (last) last.text += char;
      else pending += char;
    } else if (last && last.devanagari === kind) {
      last.text += char;
    } else {
      runs.push({ text: pending + char, devanagari: kind });
      pending = '';
    }
  }
  if (pending) runs.push({ text: pending, devanagari: false });
  return runs;
}

/** One line shaped by fontkit, run by run: its glyphs (kerning, conjuncts and mark positions applied) and its advance. */
export function shapeLine(text: string, script: Script, weight: Weight): ShapedText {
  const cacheKey = `${script}${weight}|${text}`;
  const known = shaped.get(cacheKey);
  if (known) return known;
  const font = measuringFont(script, weight);
  const em = 1 / font.unitsPerEm;
  let pen = 0;
  const glyphs: ShapedGlyph[] = [];
  for (const part of scriptRuns(text)) {
    const run = font.layout(part.text);
    run.glyphs.forEach((glyph, i) => {
      const p = run.positions[i];
      const key = glyphKey(script, weight, glyph.id);
      if (!outlines.has(key)) outlines.set(key, glyph.path.toSVG());
      glyphs.push({ key, x: (pen + p.xOffset) * em, y: p.yOffset * em });
      pen += p.xAdvance;
    });
  }
  const result = { advance: pen * em, glyphs };
  if (shaped.size >= CACHE) shaped.clear();
  shaped.set(cacheKey, result);
  return result;
}

/** The outline of a glyph named by `key`, in font units with y up (the SVG flips it). */
export function glyphOutline(key: string): string {
  const known = outlines.get(key);
  if (known !== undefined) return known;
  const script: Script = key[0] === 'l' ? 'latin' : 'devanagari';
  const weight: Weight = key[1] === 'b' ? 'bold' : 'regular';
  const outline = measuringFont(script, weight).getGlyph(Number(key.slice(2))).path.toSVG();
  outlines.set(key, outline);
  return outline;
}

/** Font units per em of the face a key names (every Noto face here has the same, but it is read, not assumed). */
export function unitsPerEm(key: string): number {
  return measuringFont(key[0] === 'l' ? 'latin' : 'devanagari', key[1] === 'b' ? 'bold' : 'regular').unitsPerEm;
}
