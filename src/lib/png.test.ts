import { describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import { encodeRgbaPng } from './png.ts';

describe('encodeRgbaPng', () => {
  it('round-trips through a PNG decoder', () => {
    const rgba = new Uint8Array(3 * 2 * 4).map((_, i) => (i * 37) % 256);
    const png = PNG.sync.read(encodeRgbaPng(3, 2, rgba));
    expect([png.width, png.height]).toEqual([3, 2]);
    expect(Array.from(png.data)).toEqual(Array.from(rgba));
  });

  it('refuses a wrong size', () => {
    expect(() => encodeRgbaPng(2, 2, new Uint8Array(15))).toThrow(RangeError);
    expect(() => encodeRgbaPng(0, 2, new Uint8Array(0))).toThrow(RangeError);
  });
});
