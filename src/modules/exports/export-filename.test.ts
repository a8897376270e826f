import { describe, expect, it } from 'vitest';
import { asciiFilename, exportFilename } from './export-filename.ts';

describe('exportFilename', () => {
  it('is the question text with the extension', () => {
    expect(exportFilename('Which logo do you prefer?', 'q_1', 'pdf')).toBe('Which logo do you prefer.pdf');
    expect(exportFilename('Which logo do you prefer?', 'q_1', 'png', 'story')).toBe('Which logo do you prefer (story).png');
    expect(exportFilename('आपको कौन सा लोगो पसंद है?', 'q_1', 'csv')).toBe('आपको कौन सा लोगो पसंद है.csv');
  });

  it('drops what file systems refuse and cuts long texts at a word', () => {
    expect(exportFilename('a/b\\c:d*e"f<g>h|i\u0000j\nk', 'q_1', 'csv')).toBe('a b c d e f g h i j k.csv');
    const long = exportFilename(`${'word '.repeat(40)}end`, 'q_1', 'csv');
    expect(long.length).toBeLessThanOrEqual(86);
    expect(long).toMatch(/^word( word)*…\.csv$/);
    expect(exportFilename('..', 'q_9', 'pdf')).toBe('Headcount q_9.pdf');
    expect(exportFilename('???', 'q_9', 'pdf')).toBe('Headcount q_9.pdf');
  });

  it('has a readable ASCII fallback', () => {
    expect(asciiFilename('Qué opinas del café.pdf')).toBe('Que opinas del cafe.pdf');
    expect(asciiFilename('आपको कौन सा.csv')).toBe('_ _ _.csv');
  });
});
