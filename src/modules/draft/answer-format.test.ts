import { describe, expect, it } from 'vitest';
import { normalizeDraft } from './draft-defaults.ts';
import { readAnswer, storedAnswer } from './answer-format.ts';

/** The "write an answer" minimum (issue 8, point 9): only characters people can see count. */
const freeText = normalizeDraft({ type: 'free_text', text: 'What would make you switch banks?' });
const withReason = normalizeDraft({ type: 'single_choice', text: 'Which?', options: [{ label: 'A' }, { label: 'B' }], reason: 'required' });

describe('readAnswer: written text', () => {
  it.each(['', '   ', '\u200B', '\u200B\u200C\u200D', '\uFEFF', '\u200E\u200F\u202E\u2066', '\uFE0F', '\u2060\u00AD\u3164', '\u0007\u001B'])('%j is not an answer', (text) => {
    expect(readAnswer(freeText, { text })).toEqual([expect.objectContaining({ field: 'answer.text', code: 'required' })]);
  });

  it('a real answer is cleaned: NFC, controls and bidi reordering out, invisible ends trimmed, line breaks kept', () => {
    expect(readAnswer(freeText, { text: '\u200B Lower fe\u0301es\u0007\r\nplease\u202E \uFEFF' })).toMatchObject({ text: 'Lower fées\nplease' });
  });

  it('2000 characters are counted as characters (an emoji is one), after cleaning', () => {
    expect(readAnswer(freeText, { text: '😀'.repeat(2000) })).toMatchObject({ text: '😀'.repeat(2000) });
    expect(readAnswer(freeText, { text: `${'x'.repeat(2000)}\u200B\u200B` })).toMatchObject({ text: 'x'.repeat(2000) });
    expect(readAnswer(freeText, { text: 'x'.repeat(2001) })).toEqual([expect.objectContaining({ field: 'answer.text', code: 'too_long' })]);
  });
});

describe('readAnswer: reason', () => {
  it('a reason of only invisible characters is no reason', () => {
    expect(readAnswer(withReason, { option: 0, reason: '\u200B\u2060' })).toEqual([expect.objectContaining({ field: 'answer.reason', code: 'required' })]);
    expect(readAnswer(withReason, { option: 0, reason: ' Cheape\u0301r ' })).toMatchObject({ reason: 'Cheapér' });
  });
});

describe('storedAnswer', () => {
  it('keeps the cleaned text and reason, and drops an invisible one', () => {
    const answer = { option: 0, reason: '\u200B' };
    const read = readAnswer(normalizeDraft({ ...withReason, reason: 'optional' }), answer);
    expect(Array.isArray(read)).toBe(false);
    expect(storedAnswer(answer, read as Exclude<typeof read, unknown[]>)).toEqual({ option: 0 });
  });
});
