import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cleanAnswerText, codePointName, forbiddenCharacter, normalizeText, visibleLength, visibleText } from './text.ts';

const multiline = { multiline: true };
const oneLine = { multiline: false };

describe('normalizeText', () => {
  it('composes to NFC and makes every line break LF', () => {
    expect(normalizeText('Cafe\u0301')).toBe('Café');
    expect(normalizeText('a\r\nb\rc\nd')).toBe('a\nb\nc\nd');
  });
  it('is idempotent', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (text) => {
      expect(normalizeText(normalizeText(text))).toBe(normalizeText(text));
    }));
  });
});

describe('forbiddenCharacter', () => {
  it.each([
    ['\u0007', 'bell'],
    ['\u001B', 'escape'],
    ['\u007F', 'delete'],
    ['\u0085', 'C1 next line'],
    ['\u009B', 'C1 control sequence introducer'],
    ['\r', 'carriage return left after normalizing'],
  ])('refuses %j (%s) in any text', (char) => {
    expect(forbiddenCharacter(`a${char}b`, multiline)?.char).toBe(char);
    expect(forbiddenCharacter(`a${char}b`, oneLine)?.char).toBe(char);
  });

  it.each(['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'])('refuses the bidi embedding, override or isolate %j', (char) => {
    expect(forbiddenCharacter(`abc ${char}def`, multiline)).toEqual({ char, why: expect.stringContaining('bidi') });
  });

  it('allows tab and line feed in multi-line text only; line and paragraph separators only there too', () => {
    for (const char of ['\t', '\n', '\u2028', '\u2029']) {
      expect(forbiddenCharacter(`a${char}b`, multiline)).toBeNull();
      expect(forbiddenCharacter(`a${char}b`, oneLine)?.char).toBe(char);
    }
  });

  it('allows what real text needs: bidi marks, joiners, non-joiners, emoji sequences, any script', () => {
    for (const text of ['שלום \u200Eworld\u200F', '👨\u200D👩\u200D👧', 'می\u200Cخواهم', 'नमस्ते', '❤\uFE0F', 'Olá, señor', 'ใช่ไหม']) {
      expect(forbiddenCharacter(text, oneLine)).toBeNull();
    }
  });
});

describe('visibleLength and visibleText', () => {
  it('counts nothing for zero-width, format, bidi, BOM, variation selectors, fillers and spaces', () => {
    const invisible = '\u200B\u200C\u200D\u2060\uFEFF\u200E\u200F\u202E\u2066\uFE0F\uFE0E\u00AD\u034F\u3164\u115F\u180E \t\n\u00A0\u3000\u2028\u{E0041}';
    expect(visibleLength(invisible)).toBe(0);
    expect(visibleText(invisible).trim()).toBe('');
  });
  it('counts code points people see, marks included', () => {
    expect(visibleLength('Café')).toBe(4);
    expect(visibleLength('Cafe\u0301')).toBe(5);
    expect(visibleLength('👨\u200D👩\u200D👧')).toBe(3);
    expect(visibleLength('नमस्ते')).toBe(6);
  });
  it('visibleText drops invisible characters inside words and keeps spaces as spaces', () => {
    expect(visibleText('pass\u200Bword\u00A0now')).toBe('password now');
  });
});

describe('cleanAnswerText', () => {
  it('normalizes, takes out controls and bidi reordering, keeps line breaks and tabs, trims invisible ends', () => {
    expect(cleanAnswerText('\uFEFF\u200B  Lower fe\u0301es\u0007\r\nand a \u202Ebetter\u202C\tapp \u200D ')).toBe('Lower fées\nand a better\tapp');
  });
  it('never leaves a character forbiddenCharacter would refuse in multi-line text', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => {
      expect(forbiddenCharacter(cleanAnswerText(text), multiline)).toBeNull();
    }));
  });
});

describe('codePointName', () => {
  it('names astral characters by their code point', () => {
    expect(codePointName('\u0007')).toBe('U+0007');
    expect(codePointName('\u{E0041}')).toBe('U+E0041');
  });
});
