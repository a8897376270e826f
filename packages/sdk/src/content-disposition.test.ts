import { describe, expect, it } from 'vitest';
import { filenameFromContentDisposition } from './content-disposition.ts';

describe('filenameFromContentDisposition', () => {
  it("prefers the UTF-8 filename* (RFC 6266) to the ASCII fallback, as the exports send both", () => {
    expect(filenameFromContentDisposition(`attachment; filename="Which name is best_.csv"; filename*=UTF-8''Which%20name%20is%20best%3F%20%C3%A9.csv`)).toBe('Which name is best? é.csv');
  });
  it('reads a quoted or bare filename, and nothing', () => {
    expect(filenameFromContentDisposition('inline; filename="a \\"b\\".pdf"')).toBe('a "b".pdf');
    expect(filenameFromContentDisposition('inline; filename=chart.png')).toBe('chart.png');
    expect(filenameFromContentDisposition('inline')).toBeNull();
    expect(filenameFromContentDisposition(null)).toBeNull();
  });
  it('falls back when filename* is malformed', () => {
    expect(filenameFromContentDisposition(`attachment; filename="x.csv"; filename*=UTF-8''%E0%A4%A.csv`)).toBe('x.csv');
  });
});
