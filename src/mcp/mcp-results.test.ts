import { describe, expect, it } from 'vitest';
import { aboutTime } from './mcp-results.ts';

describe('aboutTime', () => {
  it('says a time to answer in the unit a person would use', () => {
    expect(aboutTime(1)).toBe('about 1 minute');
    expect(aboutTime(4)).toBe('about 4 minutes');
    expect(aboutTime(89)).toBe('about 89 minutes');
    expect(aboutTime(90)).toBe('about 2 hours');
    expect(aboutTime(60 * 47)).toBe('about 47 hours');
    expect(aboutTime(10_080)).toBe('about 7 days');
    expect(aboutTime(24 * 60 * 1.2)).toBe('about 29 hours');
  });
});
