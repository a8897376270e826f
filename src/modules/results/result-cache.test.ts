import { describe, expect, it } from 'vitest';
import { WeightedLru } from './result-cache.ts';

describe('WeightedLru', () => {
  it('evicts the least recently used first when over its weight', () => {
    const lru = new WeightedLru<string, number>(10);
    lru.set('a', 1, 4);
    lru.set('b', 2, 4);
    expect(lru.get('a')).toBe(1); // a is now the most recent
    lru.set('c', 3, 4); // 12 > 10: b goes
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.get('c')).toBe(3);
    expect(lru.weight).toBe(8);
  });

  it('replaces an entry, bounds the number of entries, and never keeps something heavier than itself', () => {
    const lru = new WeightedLru<string, number>(100, 2);
    lru.set('a', 1, 10);
    lru.set('a', 2, 20);
    expect(lru.get('a')).toBe(2);
    expect(lru.weight).toBe(20);
    lru.set('b', 3, 1);
    lru.set('c', 4, 1);
    expect(lru.size).toBe(2);
    expect(lru.get('a')).toBeUndefined();
    lru.set('huge', 5, 101);
    expect(lru.get('huge')).toBeUndefined();
    lru.delete('b');
    expect(lru.size).toBe(1);
  });
});
