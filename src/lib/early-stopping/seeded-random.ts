/**
 * A seeded PRNG for the simulations in this folder's tests (mulberry32, the generator of
 * src/lib/random.ts, copied because this folder imports nothing from outside itself).
 * Math.random cannot be seeded, so a failing run could not be replayed.
 */
export type Random = () => number;

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An index drawn with the given probabilities (which must sum to 1). */
export function drawCategory(random: Random, probabilities: readonly number[]): number {
  let u = random();
  for (let i = 0; i < probabilities.length - 1; i++) {
    u -= probabilities[i];
    if (u < 0) return i;
  }
  return probabilities.length - 1;
}
