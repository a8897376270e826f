import { describe, expect, it } from 'vitest';
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key-format.ts';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('generateApiKey', () => {
  it.each(['live', 'test'] as const)('makes a well-formed %s key: prefix, 43 random base62 characters, 6-character checksum', (mode) => {
    const key = generateApiKey(mode);
    expect(key).toMatch(new RegExp(`^hc_${mode}_[0-9A-Za-z]{49}$`));
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it('never repeats itself', () => {
    const keys = new Set(Array.from({ length: 2_000 }, () => generateApiKey('live')));
    expect(keys.size).toBe(2_000);
  });
});

describe('isWellFormedApiKey', () => {
  const key = generateApiKey('live');

  it('rejects every key with one character changed, wherever it is (CRC-32 catches every one-byte change)', () => {
    const accepted: string[] = [];
    for (let index = 0; index < key.length; index++) {
      const alternatives = index < 8 ? ['x', 'H', '-', key[index] === 'l' ? 't' : 'l'] : [...ALPHABET];
      for (const c of alternatives) {
        if (c === key[index]) continue;
        const changed = key.slice(0, index) + c + key.slice(index + 1);
        if (isWellFormedApiKey(changed)) accepted.push(changed);
      }
    }
    expect(accepted).toEqual([]);
  });

  it('rejects a live key relabelled as a test key', () => {
    expect(isWellFormedApiKey(key.replace('hc_live_', 'hc_test_'))).toBe(false);
  });

  it.each([
    ['empty', ''],
    ['no prefix', key.slice('hc_live_'.length)],
    ['another prefix', key.replace('hc_live_', 'sk_live_')],
    ['one character short', key.slice(0, -1)],
    ['one character long', `${key}a`],
    ['surrounding space', ` ${key}`],
    ['non-base62 character', `${key.slice(0, 20)}_${key.slice(21)}`],
  ])('rejects %s', (_label, text) => {
    expect(isWellFormedApiKey(text)).toBe(false);
  });
});

describe('displayPrefix', () => {
  it('shows the mode, six characters and the last four, never enough to use the key', () => {
    const key = generateApiKey('test');
    const shown = displayPrefix(key);
    expect(shown).toBe(`${key.slice(0, 14)}…${key.slice(-4)}`);
    expect(shown.startsWith('hc_test_')).toBe(true);
    expect(shown.length).toBeLessThan(key.length / 2);
  });
});

describe('hashApiKey', () => {
  it('is a deterministic SHA-256 that tells keys apart', () => {
    const a = generateApiKey('live');
    const b = generateApiKey('live');
    expect(hashApiKey(a)).toHaveLength(32);
    expect(hashApiKey(a).equals(hashApiKey(a))).toBe(true);
    expect(hashApiKey(a).equals(hashApiKey(b))).toBe(false);
  });
});
