import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { encodeBase62, isBase62, randomBase62 } from './base62.ts';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const decode = (text: string): bigint => [...text].reduce((value, c) => value * 62n + BigInt(ALPHABET.indexOf(c)), 0n);
const valueOf = (bytes: Uint8Array): bigint => [...bytes].reduce((value, b) => (value << 8n) | BigInt(b), 0n);

describe('encodeBase62', () => {
  it.each([
    [[], '0'],
    [[0], '0'],
    [[9], '9'],
    [[10], 'A'],
    [[61], 'z'],
    [[62], '10'],
    [[255], '47'],
    [[1, 0], '48'],
    [[255, 255, 255, 255, 255, 255, 255, 255], 'LygHa16AHYF'],
  ])('encodes %j as %s', (bytes, expected) => {
    expect(encodeBase62(Uint8Array.from(bytes))).toBe(expected);
  });

  it('is the big-endian number of the bytes in base 62, without leading zeros', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        const text = encodeBase62(bytes);
        expect(isBase62(text)).toBe(true);
        expect(decode(text)).toBe(valueOf(bytes));
        expect(text === '0' || text[0] !== '0').toBe(true);
      }),
    );
  });
});

describe('randomBase62', () => {
  it('gives exactly the length asked for, in the alphabet', () => {
    for (const length of [0, 1, 6, 20, 43, 200]) {
      const text = randomBase62(length);
      expect(text).toHaveLength(length);
      if (length > 0) expect(isBase62(text)).toBe(true);
    }
  });

  it('uses every character about equally often', () => {
    const counts = new Map<string, number>();
    for (const c of randomBase62(62 * 2_000)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 2000 expected per character, standard deviation ~44: ±400 is nine of them.
    for (const count of counts.values()) expect(Math.abs(count - 2_000)).toBeLessThan(400);
  });
});

describe('isBase62', () => {
  it('accepts only letters and digits', () => {
    expect(isBase62(ALPHABET)).toBe(true);
    for (const text of ['', '-', '_', 'a b', 'é', 'abc+', 'ab/c', 'abc=']) expect(isBase62(text)).toBe(false);
  });
});
