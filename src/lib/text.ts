/**
 * Text people type, read the same way everywhere (issue 8, point 9; docs/asking.md "Text"):
 * questions (refuse what cannot be shown) and answers (clean what cannot be shown, then count
 * only what can be seen).
 *
 * Unicode property escapes, not hand lists: \p{Cc} is every C0 and C1 control, \p{Cf} every
 * format character (zero-width space and joiners, bidi marks and controls, BOM, soft hyphen, tag
 * characters), \p{Z} every space and separator, and Default_Ignorable_Code_Point the rest of what
 * renders as nothing (variation selectors, Hangul fillers, CGJ). The tables come with Node's
 * Unicode version, so a character added to a category is covered without anyone editing a list,
 * and a reader sees the class of problem, not a wall of code points.
 */

/**
 * Bidi embeddings, overrides and isolates (LRE, RLE, PDF, LRO, RLO; LRI, RLI, FSI, PDI). They
 * reorder what follows them on screen, so the text shown is not the text stored ("Trojan Source",
 * CVE-2021-42574). Listed by range on purpose: \p{Bidi_Control} also holds the marks (LRM, RLM,
 * ALM), which reorder nothing and are needed in mixed-direction text, so they are allowed.
 */
const BIDI_REORDERING = /[\u202A-\u202E\u2066-\u2069]/u;

/** Controls other than tab and line feed, and lone surrogate halves (broken UTF-16). */
const CONTROL_MULTILINE = /[^\P{Cc}\t\n]|\p{Cs}/u;
/** One-line text (an option label): every control, and the line and paragraph separators. */
const CONTROL_ONE_LINE = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}]/u;

/** What shows nothing on its own: spaces, controls, format characters, default-ignorables. */
const INVISIBLE = /[\s\p{Z}\p{Cc}\p{Cf}\p{Cs}\p{Default_Ignorable_Code_Point}]/u;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'gu');
const INVISIBLE_EDGES = new RegExp(`^${INVISIBLE.source}+|${INVISIBLE.source}+$`, 'gu');

export interface TextShape {
  /** Text that may run over lines (question text, context, answers): tab and line feed allowed. */
  multiline: boolean;
}

/**
 * NFC (one code point for "é" however it was typed, so equal texts compare equal and lengths are
 * counted as people see them); CRLF and lone CR (what a browser's textarea sends) become LF.
 */
export function normalizeText(text: string): string {
  return text.normalize('NFC').replace(/\r\n?/g, '\n');
}

/** "U+202E" for a character, as a message names it. */
export function codePointName(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * The first character a question may not contain, with why, or null: a control character
 * (tab and line feed allowed in multi-line text) or a bidi embedding, override or isolate.
 */
export function forbiddenCharacter(text: string, shape: TextShape): { char: string; why: string } | null {
  const control = (shape.multiline ? CONTROL_MULTILINE : CONTROL_ONE_LINE).exec(text);
  if (control) {
    return { char: control[0], why: shape.multiline ? 'a control character (only tab and line breaks are allowed)' : 'a control character or line break (this text is one line)' };
  }
  const bidi = BIDI_REORDERING.exec(text);
  if (bidi) return { char: bidi[0], why: 'a bidi control that reorders the text shown' };
  return null;
}

/** How many characters of the text can be seen (code points outside the invisible classes). */
export function visibleLength(text: string): number {
  let count = 0;
  for (const char of text) if (!INVISIBLE.test(char)) count++;
  return count;
}

/** The text with every invisible character taken out: what a reader sees, for comparisons and the content check. */
export function visibleText(text: string): string {
  return text.replace(INVISIBLE_ALL, (char) => (/[\s\p{Z}]/u.test(char) ? ' ' : ''));
}

/**
 * A written answer as stored (docs/answer-link.md "Answers"): normalized, with the characters
 * that cannot be shown taken out rather than refused (a person's paste often carries them:
 * phone apps wrap numbers in bidi embeddings), and trimmed of invisible characters at both ends.
 */
export function cleanAnswerText(text: string): string {
  const cleaned = normalizeText(text).replace(new RegExp(`${CONTROL_MULTILINE.source}|${BIDI_REORDERING.source}`, 'gu'), '');
  return cleaned.replace(INVISIBLE_EDGES, '');
}
