import { describe, expect, it } from 'vitest';
import { QUESTION_LANGUAGES } from '../../draft/question-types.ts';
import { scriptRuns } from './glyphs.ts';
import { cleanText, ELLIPSIS, fitLine, measure, scriptOf, wrapText } from './text-measure.ts';
import { exportLanguage, simulatedShare, wordsFor } from './words.ts';

const style = { size: 20, weight: 'regular' as const };

describe('text made to fit', () => {
  it('wraps at spaces, never past the width or the line count, and ends cut text with an ellipsis', () => {
    const text = 'Which name should our budgeting app launch with, given that most people already know the word penny?';
    for (const width of [120, 240, 480]) {
      for (const maxLines of [1, 2, 3]) {
        const lines = wrapText(text, style, width, maxLines);
        expect(lines.length).toBeLessThanOrEqual(maxLines);
        for (const line of lines) expect(measure(line, style)).toBeLessThanOrEqual(width);
        const shown = lines.join(' ');
        if (shown.replace(ELLIPSIS, '') !== text) expect(shown.endsWith(ELLIPSIS)).toBe(true);
      }
    }
    expect(wrapText(text, style, 5000, 1)).toEqual([text]);
    expect(wrapText('  ', style, 100, 2)).toEqual([]);
  });

  it('breaks a word longer than the line between whole graphemes, so no Devanagari sign is split from its letter', () => {
    const word = 'अंतर्राष्ट्रीयकरणविश्वविद्यालयप्रतिष्ठान';
    const lines = wrapText(word, style, 60, 20);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.join('')).toBe(word);
    for (const line of lines) {
      expect(measure(line, style)).toBeLessThanOrEqual(60);
      expect(line).not.toMatch(/^[\p{M}\u094D]/u);
    }
    expect(fitLine('x'.repeat(200), style, 100).endsWith(ELLIPSIS)).toBe(true);
  });

  it('leaves out what a font cannot draw or what would reorder the text, keeps the joiners Devanagari needs', () => {
    expect(cleanText('Pocket 🚀 \u202Eevil\u202C\u0007 wins\n\tnow')).toBe('Pocket evil wins now');
    expect(cleanText('क्‍ष')).toBe('क्\u200Dष');
    expect(cleanText('漢字 only')).toBe('only');
  });

  it('draws a text with any Devanagari in the Devanagari face, shaped run by run where the script changes', () => {
    expect(scriptOf('Pocket')).toBe('latin');
    expect(scriptOf('Lead: फ़्लिपकार्ट (37%)')).toBe('devanagari');
    expect(scriptRuns('Lead: फ़्लिपकार्ट (37%) and अमेज़न')).toEqual([
      { text: 'Lead: ', devanagari: false },
      { text: 'फ़्लिपकार्ट (37%) ', devanagari: true },
      { text: 'and ', devanagari: false },
      { text: 'अमेज़न', devanagari: true },
    ]);
  });
});

describe('the export words', () => {
  it('speak the question language, English otherwise, and format numbers its way', () => {
    expect(exportLanguage('pt-BR')).toBe('pt');
    expect(exportLanguage('xx')).toBe('en');
    for (const language of QUESTION_LANGUAGES) {
      const f = wordsFor(language);
      for (const [key, value] of Object.entries(f.w)) expect(typeof value === 'string' ? value.trim() : Object.values(value).join(''), `${language}.${key}`).not.toBe('');
      expect(f.more(12)).toContain('12');
    }
    expect(wordsFor('de').int(1234)).toBe('1.234');
    expect(wordsFor('en').more(1)).toBe('and 1 more answer');
    expect(wordsFor('en').more(4993)).toBe('and 4,993 more answers');
  });

  it('knows from the verification line whether all, some or none of the answers are simulated', () => {
    expect(simulatedShare({ verificationLine: 'Answered by simulated heads (development mode), not real people.' })).toBe('all');
    expect(simulatedShare({ verificationLine: 'Answered by 6 simulated heads (development mode, not real people) and 6 people through the answer link (not verified).' })).toBe('some');
    expect(simulatedShare({ verificationLine: 'Answered by 200 verified heads of tier 2 or above.' })).toBeNull();
  });
});
