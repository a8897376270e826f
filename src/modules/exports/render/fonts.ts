import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * The fonts every export is drawn with: the Noto files shipped in assets/fonts (assets/fonts/README.md),
 * never a font of the machine, so a PNG or PDF looks the same on a laptop, in CI and in production,
 * and a Hindi question never depends on what a server happens to have installed.
 *
 * Two families: Noto Sans for Latin text (en, es, pt, fr, de, id, tl) and Noto Sans Devanagari for
 * Hindi. Both files also carry basic Latin (digits, punctuation), so a text run is drawn whole in
 * one family (see text-measure.ts) and a conjunct is never split across fonts.
 */
export type Script = 'latin' | 'devanagari';
export type Weight = 'regular' | 'bold';

const FILES: Record<Script, Record<Weight, string>> = {
  latin: { regular: 'NotoSans-Regular.ttf', bold: 'NotoSans-Bold.ttf' },
  devanagari: { regular: 'NotoSansDevanagari-Regular.ttf', bold: 'NotoSansDevanagari-Bold.ttf' },
};

// Relative to this file, not to the working directory, so the service, the CLI and tests find them alike.
const FONT_DIR = new URL('../../../../assets/fonts/', import.meta.url);

/** The absolute path of one face's file. */
export const fontFile = (script: Script, weight: Weight): string => fileURLToPath(new URL(FILES[script][weight], FONT_DIR));

let buffers: Map<string, Buffer> | null = null;

/** The bytes of one face, read once on first use (pdfkit embeds them; fontkit measures with them). */
export function fontBuffer(script: Script, weight: Weight): Buffer {
  buffers ??= new Map(
    Object.values(FILES).flatMap((weights) => Object.values(weights)).map((file) => [file, readFileSync(new URL(file, FONT_DIR))]),
  );
  const found = buffers.get(FILES[script][weight]);
  if (!found) throw new Error(`font ${script}/${weight} is missing from assets/fonts`);
  return found;
}

/** The few parts of a fontkit font the renderer uses (fontkit ships no types). */
export interface FontkitGlyph {
  id: number;
  path: { toSVG(): string };
}
export interface MeasuringFont {
  unitsPerEm: number;
  ascent: number;
  descent: number;
  layout(text: string): {
    advanceWidth: number;
    glyphs: FontkitGlyph[];
    positions: Array<{ xAdvance: number; yAdvance: number; xOffset: number; yOffset: number }>;
  };
  getGlyph(id: number): FontkitGlyph;
  hasGlyphForCodePoint(codePoint: number): boolean;
}
interface Fontkit {
  create(buffer: Buffer): MeasuringFont;
}

/*
 * fontkit is what pdfkit lays text out with, so widths measured with it are the widths the PDF
 * draws; it shapes Devanagari (reordered i-matra, conjuncts, reph) and gives the glyph outlines
 * the PNG is drawn with (glyphs.ts). It is resolved from pdfkit's own location, so it is always
 * the copy pdfkit installed, wherever npm put it.
 */
let fontkit: Fontkit | null = null;
const measuring = new Map<string, MeasuringFont>();

export function measuringFont(script: Script, weight: Weight): MeasuringFont {
  const key = `${script}/${weight}`;
  let font = measuring.get(key);
  if (!font) {
    if (!fontkit) {
      const fromHere = createRequire(import.meta.url);
      fontkit = createRequire(fromHere.resolve('pdfkit'))('fontkit') as Fontkit;
    }
    font = fontkit.create(fontBuffer(script, weight));
    measuring.set(key, font);
  }
  return font;
}
