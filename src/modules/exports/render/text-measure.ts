import { measuringFont, type Script, type Weight } from './fonts.ts';
import { shapeLine } from './glyphs.ts';

/**
 * Text made to fit: cleaned of what cannot be drawn, measured with the real font, wrapped and cut
 * with an ellipsis, so no line of a user's text ever runs off a PNG or a PDF page. SVG has no line
 * wrapping and pdfkit's own wrapper can add pages, so both renderers draw only lines made here.
 */
export interface TextStyle {
  size: number;
  weight: Weight;
}

export const ELLIPSIS = '…';

/*
 * The PNG draws exactly the shaped glyphs measured here, and pdfkit shapes with the same fontkit;
 * lines still fill only 98% of their room, so rounding in a painter never clips a letter.
 */
const ROOM = 0.98;

const DEVANAGARI = /[\u0900-\u097F\uA8E0-\uA8FF\u1CD0-\u1CFF]/u;

/** A text with any Devanagari is drawn whole in Noto Sans Devanagari (which also has Latin), so conjuncts stay intact. */
export const scriptOf = (text: string): Script => (DEVANAGARI.test(text) ? 'devanagari' : 'latin');

/*
 * What never reaches a font: controls, bidi overrides and isolates (they would reorder the text
 * shown, "Trojan Source"), and invisible format characters other than ZWJ/ZWNJ, which Devanagari
 * needs to pick half forms. Line breaks become spaces: every export wraps text itself.
 */
const DROPPED = /[\p{Cc}\p{Cs}\u202A-\u202E\u2066-\u2069\u200B\u2060\uFEFF\u00AD\uFE00-\uFE0F]/gu;
const SPACES = /[\s\p{Z}]+/gu;

/**
 * The text as it will be drawn: NFC, one line, single spaces, and only characters the chosen font
 * has (an emoji or a CJK character would be an empty box in an export, so it is left out).
 */
export function cleanText(text: string, weight: Weight = 'regular'): string {
  const flat = text.normalize('NFC').replace(SPACES, ' ').replace(DROPPED, '').trim();
  const font = measuringFont(scriptOf(flat), weight);
  let out = '';
  for (const char of flat) {
    const code = char.codePointAt(0)!;
    if (code === 0x200c || code === 0x200d || font.hasGlyphForCodePoint(code)) out += char;
  }
  return out.replace(/ {2,}/g, ' ').trim();
}

/** Width of `text` at `style`, in the unit of `style.size` (px in an SVG, pt in a PDF): the shaped advance, as drawn. */
export function measure(text: string, style: TextStyle): number {
  return shapeLine(text, scriptOf(text), style.weight).advance * style.size;
}

/** Distance between baselines: Devanagari's head line and vowel signs reach above and below Latin's. */
export function lineHeight(text: string, size: number): number {
  return size * (scriptOf(text) === 'devanagari' ? 1.5 : 1.28);
}

/** Where the first baseline sits below the top of a text block. */
export function firstBaseline(text: string, size: number): number {
  return size * (scriptOf(text) === 'devanagari' ? 1.12 : 1.0);
}

const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const graphemes = (text: string): string[] => Array.from(GRAPHEMES.segment(text), (s) => s.segment);

/** The longest start of `text` that fits `width` with an ellipsis after it: at a word end when that keeps most of the line. */
export function withEllipsis(text: string, style: TextStyle, width: number): string {
  const room = width * ROOM;
  if (measure(text, style) <= room) return text;
  const parts = graphemes(text);
  let lo = 0;
  let hi = parts.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(parts.slice(0, mid).join('').trimEnd() + ELLIPSIS, style) <= room) lo = mid;
    else hi = mid - 1;
  }
  const cut = parts.slice(0, lo).join('');
  const space = cut.lastIndexOf(' ');
  // A cut inside a word reads worse than a shorter line, unless the word end is far back.
  const atWord = space > cut.length * 0.6 ? cut.slice(0, space) : cut;
  return `${atWord.trimEnd().replace(/[\s,;:.\-–—]+$/u, '')}${ELLIPSIS}`;
}

/** One line: the text itself if it fits, else cut with an ellipsis. */
export function fitLine(text: string, style: TextStyle, width: number): string {
  return withEllipsis(cleanText(text, style.weight), style, width);
}

/**
 * `text` in at most `maxLines` lines of at most `width`, breaking at spaces (inside a word only
 * when the word alone is too long); what does not fit ends the last line with an ellipsis.
 */
export function wrapText(text: string, style: TextStyle, width: number, maxLines: number): string[] {
  const clean = cleanText(text, style.weight);
  if (!clean || maxLines < 1) return [];
  const room = width * ROOM;
  const words = clean.split(' ');
  const lines: string[] = [];
  let line = '';
  // One line more than asked for is enough to know that the text goes on.
  for (let i = 0; i < words.length && lines.length <= maxLines; ) {
    const candidate = line ? `${line} ${words[i]}` : words[i];
    if (measure(candidate, style) <= room) {
      line = candidate;
      i++;
    } else if (line) {
      lines.push(line);
      line = '';
    } else {
      // A single word wider than the line: break it between graphemes.
      const parts = graphemes(words[i]);
      let take = 1;
      while (take < parts.length && measure(parts.slice(0, take + 1).join(''), style) <= room) take++;
      lines.push(parts.slice(0, take).join(''));
      words[i] = parts.slice(take).join('');
      if (!words[i]) i++;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = withEllipsis(`${kept[maxLines - 1]} ${lines[maxLines]}`, style, width);
  return kept;
}
