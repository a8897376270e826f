/**
 * The floor before any early stop (issue 17 point 1): no rule may stop a question before
 * max(10, ⌈10% of n⌉) answers, n being the number of answers the requester asked for.
 *
 * Why: the rules below keep their error guarantee from the first answer on, so the floor is not
 * needed for validity (it only removes chances to stop, so it can only lower the false-stop rate).
 * It is there for the people reading the result: a question "settled" by 8 answers out of 2,000 is
 * statistically sound but reads as a fluke, and the first answers of a panel come from the
 * fastest heads, who are not always typical of the rest.
 *
 * When the floor is n or more, the question cannot stop early at all (n ≤ 10).
 * Integer arithmetic on purpose: 0.1 * 30 is 3.0000000000000004 in floating point, and its ceiling 4.
 */
export function minimumBeforeStop(n: number): number {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be a non-negative integer, got ${n}`);
  return Math.max(10, Math.ceil(n / 10));
}

/** Whether a rule may be consulted at all after `answered` of `requested` answers. */
export function floorReached(answered: number, requested: number): boolean {
  return answered >= minimumBeforeStop(requested);
}
