/**
 * The seeded PRNG of this folder's simulations: src/lib/random.ts's (mulberry32). Math.random
 * cannot be seeded, so a failing run could not be replayed.
 */
import { seededRng, type Rng } from '../random.ts';

export type Random = Rng;
export const seededRandom: (seed: number) => Random = seededRng;

/** An index drawn with the given probabilities (which must sum to 1). */
export function drawCategory(random: Random, probabilities: readonly number[]): number {
  let u = random();
  for (let i = 0; i < probabilities.length - 1; i++) {
    u -= probabilities[i];
    if (u < 0) return i;
  }
  return probabilities.length - 1;
}
