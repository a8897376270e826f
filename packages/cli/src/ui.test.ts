import { describe, expect, it } from 'vitest';
import { colorEnabled, progressBarEnabled, truncate, visibleLength } from './ui.ts';

const tty = { write: () => true, isTTY: true };
const pipe = { write: () => true, isTTY: false };

describe('colour and the live progress bar', () => {
  it('only on a terminal, never with NO_COLOR (any non-empty value), TERM=dumb or --no-color', () => {
    expect(colorEnabled(tty, {})).toBe(true);
    expect(colorEnabled(pipe, {})).toBe(false);
    expect(colorEnabled(tty, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled(tty, { NO_COLOR: '' })).toBe(true);
    expect(colorEnabled(tty, { TERM: 'dumb' })).toBe(false);
    expect(colorEnabled(tty, {}, false)).toBe(false);
    expect(progressBarEnabled(tty, {})).toBe(true);
    expect(progressBarEnabled(pipe, {})).toBe(false);
    expect(progressBarEnabled(tty, { NO_COLOR: 'yes' })).toBe(false);
    expect(progressBarEnabled(tty, {}, false)).toBe(false);
  });

  it('widths count what is seen: escape codes are not, each character is one column', () => {
    expect(visibleLength('\u001b[32m██\u001b[39m Penny')).toBe(8);
    expect(truncate('Which name is best for a savings app?', 12)).toBe('Which name …');
    expect(truncate('two\nlines', 20)).toBe('two lines');
  });
});
