/**
 * How long a question takes to fill (docs/pricing.md, "Time to answer"): the matching heads seen
 * in the last day each answer about once every half hour they are around, rush questions are
 * pushed to them first, and a minute goes to reaching them. A question nobody in the panel can
 * answer can still be answered through its link, so its time is the whole open window.
 */
export const ANSWERS_PER_ACTIVE_HEAD_PER_MINUTE = 1 / 30;
export const RUSH_SPEEDUP = 1.6;
export const MIN_ETA_MINUTES = 2;
export const OPEN_WINDOW_MINUTES = 7 * 24 * 60;

export function etaMinutes(input: { n: number; poolSize: number; activeHeads: number; rush: boolean }): number {
  const n = Math.max(0, input.n);
  if (input.poolSize === 0) return OPEN_WINDOW_MINUTES;
  // Heads not seen in the last day still come back now and then.
  const reachable = Math.min(input.activeHeads + 0.05 * (input.poolSize - input.activeHeads), input.poolSize);
  const perMinute = reachable * ANSWERS_PER_ACTIVE_HEAD_PER_MINUTE * (input.rush ? RUSH_SPEEDUP : 1);
  // Each head answers once, so a pool smaller than n cannot fill it.
  if (perMinute <= 0 || input.poolSize < n) return OPEN_WINDOW_MINUTES;
  return Math.min(OPEN_WINDOW_MINUTES, Math.max(MIN_ETA_MINUTES, Math.ceil(1 + n / perMinute)));
}
