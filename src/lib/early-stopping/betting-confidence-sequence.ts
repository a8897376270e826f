/**
 * An anytime-valid interval for the mean of bounded answers (the 1–5 scale; a difference of
 * ranking positions), updated one answer at a time.
 *
 * Source: I. Waudby-Smith and A. Ramdas, "Estimating means of bounded random variables by betting",
 * J. R. Statist. Soc. B 86 (2024; online 2023) 1–27, arXiv:2010.09686: the hedged capital process
 * with predictable plug-in bets (their §4, "Hedged capital" with λ^PrPl; Theorem 3).
 *
 * Idea: for each candidate mean m, a gambler starts with 1 and bets, answer by answer, that the
 * answers average above m (capital K⁺) and, with the other half of the money, below m (K⁻):
 *
 *     K⁺_t(m) = Π_{i≤t} (1 + λ⁺_i(m)·(x_i − m)),   K⁻_t(m) = Π_{i≤t} (1 − λ⁻_i(m)·(x_i − m)),
 *     K_t(m)  = ½·K⁺_t(m) + ½·K⁻_t(m),
 *
 * with x_i in [0, 1] and bets fixed before x_i is seen. If m is the true mean, K_t(m) is a
 * nonnegative martingale with mean 1, so by Ville's inequality it ever reaches 1/α with probability
 * ≤ α: the candidates whose capital never reached 1/α form a confidence sequence. Bet sizes
 * (predictable plug-in, the paper's eq. for λ^PrPl with truncation c = 1/2):
 *
 *     λ_t = min( √( 2·ln(2/α) / (σ̂²_{t−1} · t · ln(1 + t)) ), c ),
 *     λ⁺_t(m) = min(λ_t, c/m),   λ⁻_t(m) = min(λ_t, c/(1 − m)),
 *     μ̂_t = (½ + Σ_{i≤t} x_i)/(t + 1),   σ̂²_t = (¼ + Σ_{i≤t} (x_i − μ̂_i)²)/(t + 1),
 *
 * so every factor is ≥ 1 − c = ½ > 0 (the capital never goes negative).
 *
 * The grid. The capital is tracked for G candidate means m_j = (j + ½)/G, j = 0…G−1 (default
 * G = 1,000: a resolution of 0.001 on [0, 1], 0.004 on the 1–5 scale), each update O(G). A candidate
 * is rejected for good once its capital reaches 1/α (the running intersection, valid because Ville's
 * inequality bounds the chance of EVER reaching it). K⁺ falls and K⁻ rises in m, so the surviving
 * candidates form an interval; the reported bounds are the nearest rejected grid points (or the ends
 * of the range), so the true interval is always inside the reported one: the grid only ever widens.
 *
 * Observations in [low, high] (1–5: [1, 5]; a difference of ranking positions among K items:
 * [−(K−1), K−1]) are rescaled to [0, 1] on the way in and the bounds scaled back on the way out.
 */

export type BettingOptions = {
  /** 1 − confidence. */
  alpha: number;
  /** The range of one answer: [1, 5] for the 1–5 scale. Default [0, 1]. */
  range?: readonly [number, number];
  /** Number of candidate means G (default 1,000), or the candidates themselves on [0, 1] (tests check the truth alone). */
  grid?: number | readonly number[];
  /** Bet truncation c in (0, 1) (default 1/2, as in the paper's experiments). */
  truncation?: number;
};

export type BettingState = {
  readonly alpha: number;
  readonly low: number;
  readonly high: number;
  readonly truncation: number;
  readonly logLevel: number;
  /** Candidate means on [0, 1], increasing. */
  readonly grid: Float64Array;
  readonly logCapitalUp: Float64Array;
  readonly logCapitalDown: Float64Array;
  /** 1 once a candidate's capital has reached 1/α. */
  readonly rejected: Uint8Array;
  /** Answers seen. */
  t: number;
  /** Σ x_i (rescaled). */
  sum: number;
  /** Σ (x_i − μ̂_i)², the variance estimate's numerator without the prior ¼. */
  sumSquaredDeviations: number;
};

export function createBettingConfidenceSequence(options: BettingOptions): BettingState {
  const { alpha } = options;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  const [low, high] = options.range ?? [0, 1];
  if (!(high > low)) throw new RangeError('range must be [low, high] with low < high');
  const truncation = options.truncation ?? 0.5;
  if (!(truncation > 0 && truncation < 1)) throw new RangeError('truncation must be in (0, 1)');
  const gridOption = options.grid ?? 1000;
  let grid: Float64Array;
  if (typeof gridOption === 'number') {
    if (!(Number.isInteger(gridOption) && gridOption >= 1)) throw new RangeError('grid must be a positive integer');
    grid = new Float64Array(gridOption);
    for (let j = 0; j < gridOption; j++) grid[j] = (j + 0.5) / gridOption;
  } else {
    grid = Float64Array.from(gridOption);
    for (let j = 0; j < grid.length; j++) {
      if (!(grid[j] > 0 && grid[j] < 1) || (j > 0 && grid[j] <= grid[j - 1])) throw new RangeError('grid points must increase within (0, 1)');
    }
  }
  return {
    alpha,
    low,
    high,
    truncation,
    logLevel: Math.log(1 / alpha),
    grid,
    logCapitalUp: new Float64Array(grid.length),
    logCapitalDown: new Float64Array(grid.length),
    rejected: new Uint8Array(grid.length),
    t: 0,
    sum: 0,
    sumSquaredDeviations: 0,
  };
}

/** Adds one answer (in the original units) to the state, in place. O(G). */
export function observe(state: BettingState, value: number): void {
  if (!(value >= state.low && value <= state.high)) throw new RangeError(`answer ${value} is outside [${state.low}, ${state.high}]`);
  const x = (value - state.low) / (state.high - state.low);
  const t = state.t + 1;
  // The bet for answer t uses only answers 1…t−1 (predictable).
  const previousVariance = (0.25 + state.sumSquaredDeviations) / t; // σ̂²_{t−1}
  const c = state.truncation;
  const lambda = Math.min(Math.sqrt((2 * Math.log(2 / state.alpha)) / (previousVariance * t * Math.log(1 + t))), c);
  const { grid, logCapitalUp, logCapitalDown, rejected, logLevel } = state;
  const logHalf = -Math.LN2;
  for (let j = 0; j < grid.length; j++) {
    if (rejected[j]) continue;
    const m = grid[j];
    const up = Math.min(lambda, c / m);
    const down = Math.min(lambda, c / (1 - m));
    logCapitalUp[j] += Math.log1p(up * (x - m));
    logCapitalDown[j] += Math.log1p(-down * (x - m));
    // ln(½K⁺ + ½K⁻), stably
    const a = logCapitalUp[j];
    const b = logCapitalDown[j];
    const hedged = logHalf + Math.max(a, b) + Math.log1p(Math.exp(-Math.abs(a - b)));
    if (hedged >= logLevel) rejected[j] = 1;
  }
  // Update the plug-in mean and variance after the bet (μ̂_t, σ̂²_t).
  state.t = t;
  state.sum += x;
  const mean = (0.5 + state.sum) / (t + 1);
  state.sumSquaredDeviations += (x - mean) * (x - mean);
}

export type MeanInterval = {
  /** Bounds in the original units; the true mean lies inside with probability ≥ 1 − α at every t at once. */
  lower: number;
  upper: number;
  /** Answers seen. */
  n: number;
  /** True when every candidate was rejected (probability ≤ α; the bounds are then the sample mean). */
  empty: boolean;
};

/** The current interval, in the original units. O(G). */
export function meanInterval(state: BettingState): MeanInterval {
  const { grid, rejected, low, high } = state;
  const scale = (u: number) => low + u * (high - low);
  let first = -1;
  let last = -1;
  for (let j = 0; j < grid.length; j++) {
    if (!rejected[j]) {
      if (first < 0) first = j;
      last = j;
    }
  }
  if (first < 0) {
    const mean = state.t > 0 ? state.sum / state.t : 0.5;
    return { lower: scale(mean), upper: scale(mean), n: state.t, empty: true };
  }
  const lower = first > 0 ? grid[first - 1] : 0;
  const upper = last < grid.length - 1 ? grid[last + 1] : 1;
  return { lower: scale(lower), upper: scale(upper), n: state.t, empty: false };
}

/** Whether a given mean (original units) is still a candidate: for tests and for "where would it have settled". */
export function isRejected(state: BettingState, gridIndex: number): boolean {
  return state.rejected[gridIndex] === 1;
}

/**
 * The margin rule for a mean, `{rule: 'margin', points, confidence}` on the 1–5 scale: settled when
 * the anytime-valid interval is at most ± points wide, `points` in the scale's own units (0.2 =
 * "the average rating is known to within 0.2 of a star"), i.e. (upper − lower)/2 ≤ points.
 * There is no leader in a mean; precision is what a requester can ask for. The claim made on
 * settling: the true mean is in [lower, upper], wrong with probability ≤ α.
 */
export function meanPrecisionSettled(interval: MeanInterval, points: number): boolean {
  if (!(points > 0)) throw new RangeError(`points must be positive, got ${points}`);
  return !interval.empty && (interval.upper - interval.lower) / 2 <= points;
}

/**
 * The margin rule for a difference (ranking: position of item A minus position of item B, per
 * answer, range [−(K−1), K−1]): settled when the interval for the mean difference lies entirely
 * beyond ± points, i.e. lower ≥ points or upper ≤ −points (points > 0; with points = 0 the
 * interval must exclude 0 strictly). The claim: the true mean difference has that sign and is at
 * least `points` in size, wrong with probability ≤ α.
 */
export function differenceSeparated(interval: MeanInterval, points: number): 'first' | 'second' | null {
  if (!(points >= 0)) throw new RangeError(`points must be non-negative, got ${points}`);
  if (interval.empty) return null;
  if (interval.lower > 0 && interval.lower >= points) return 'first';
  if (interval.upper < 0 && interval.upper <= -points) return 'second';
  return null;
}
