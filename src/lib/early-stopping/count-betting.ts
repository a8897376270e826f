/**
 * An anytime-valid interval for the mean of answers that take a few fixed values (the 1–5 scale),
 * computed from the counts alone: the engine evaluates it after every answer from the question's
 * tally, with no per-question state to store and the same result whatever the order of the answers.
 *
 * Source: I. Waudby-Smith and A. Ramdas, "Estimating means of bounded random variables by betting",
 * J. R. Statist. Soc. B 86 (2024) 1–27, arXiv:2010.09686, §5.6 "diversified Kelly" (dKelly): the
 * capital of D gamblers with fixed bets λ_1…λ_D, averaged. For a candidate mean m (answers
 * rescaled to [0, 1]) and the hedge of their §4 (half the money on "above m", half on "below m"):
 *
 *     K_t(m) = ½·(1/D)·Σ_d Π_{i≤t} (1 + λ⁺_d(m)(x_i − m))  +  ½·(1/D)·Σ_d Π_{i≤t} (1 − λ⁻_d(m)(x_i − m)),
 *     λ⁺_d(m) = min(λ_d, c/m),   λ⁻_d(m) = min(λ_d, c/(1 − m)),   c = ½,
 *
 * Each product has a bet fixed in advance, so under the true mean it is a nonnegative martingale with
 * mean 1; so is any average of them, and by Ville's inequality K_t ever reaches 1/α with probability
 * ≤ α. The set {m : K_t(m) < 1/α} is a confidence sequence. Fixed bets make each product depend only
 * on how many answers took each value: ln Π = Σ_v count_v · ln(1 + λ(v − m)). That is why this, and
 * not the predictable plug-in bets of betting-confidence-sequence.ts (narrower, but order-dependent
 * and with 16 KB of state per question), is what the engine uses. The bets double from 1/32 to 4
 * (D = 8): small bets pay off after many answers near m, large ones quickly when m is far off.
 *
 * The grid: G candidate means m_j = (j + ½)/G (G = 400: 0.01 of a star on the 1–5 scale). Nothing
 * proves the set is an interval, so the reported interval is the hull of the candidates not ruled
 * out, widened to the nearest ruled-out neighbours: it always contains the true set. The work per
 * evaluation is G·D·2 dot products of the counts with a table of logarithms made once per scale.
 */

export type CountMeanInterval = {
  /** Bounds in the answers' own units. */
  lower: number;
  upper: number;
  /** Answers counted. */
  n: number;
};

const GRID = 400;
const BETS = [1 / 32, 1 / 16, 1 / 8, 1 / 4, 1 / 2, 1, 2, 4];
const TRUNCATION = 0.5;

type Table = { values: readonly number[]; low: number; high: number; logFactorsUp: Float64Array; logFactorsDown: Float64Array };
const tables = new Map<string, Table>();

/** ln(1 + λ⁺_d(m)(x_v − m)) and ln(1 − λ⁻_d(m)(x_v − m)) for every candidate, bet and value: made once per scale. */
function tableFor(values: readonly number[]): Table {
  const key = values.join(',');
  const known = tables.get(key);
  if (known) return known;
  const low = Math.min(...values);
  const high = Math.max(...values);
  if (!(high > low)) throw new RangeError('a mean needs at least two different values');
  const k = values.length;
  const size = GRID * BETS.length * k;
  const logFactorsUp = new Float64Array(size);
  const logFactorsDown = new Float64Array(size);
  for (let j = 0; j < GRID; j++) {
    const m = (j + 0.5) / GRID;
    for (let d = 0; d < BETS.length; d++) {
      const up = Math.min(BETS[d], TRUNCATION / m);
      const down = Math.min(BETS[d], TRUNCATION / (1 - m));
      for (let v = 0; v < k; v++) {
        const x = (values[v] - low) / (high - low);
        const at = (j * BETS.length + d) * k + v;
        logFactorsUp[at] = Math.log1p(up * (x - m));
        logFactorsDown[at] = Math.log1p(-down * (x - m));
      }
    }
  }
  const table = { values: [...values], low, high, logFactorsUp, logFactorsDown };
  tables.set(key, table);
  return table;
}

/** ln of the mean of exp(terms), stably. */
function logMeanExp(terms: Float64Array): number {
  let max = -Infinity;
  for (const t of terms) if (t > max) max = t;
  let sum = 0;
  for (const t of terms) sum += Math.exp(t - max);
  return max + Math.log(sum / terms.length);
}

/** ln of the "above m" and "below m" halves of the capital against candidate j (each without the ½). */
function logSides(table: Table, counts: readonly number[], j: number, up: Float64Array, down: Float64Array): { up: number; down: number } {
  const k = counts.length;
  for (let d = 0; d < BETS.length; d++) {
    const base = (j * BETS.length + d) * k;
    let a = 0;
    let b = 0;
    for (let v = 0; v < k; v++) {
      const c = counts[v];
      if (c === 0) continue;
      a += c * table.logFactorsUp[base + v];
      b += c * table.logFactorsDown[base + v];
    }
    up[d] = a;
    down[d] = b;
  }
  return { up: logMeanExp(up), down: logMeanExp(down) };
}

/** ln(½e^a + ½e^b), stably. */
const logHedged = (a: number, b: number) => -Math.LN2 + Math.max(a, b) + Math.log1p(Math.exp(-Math.abs(a - b)));

/**
 * The interval for the mean after `counts[v]` answers took `values[v]`, at level 1 − α, valid at
 * every number of answers at once. With no answers it is the whole range.
 *
 * Not every candidate is evaluated: each "above m" factor 1 + min(λ, c/m)(x − m) is positive and
 * falls as m rises, so the "above" capital falls with m, and once it alone reaches 2/α at some m
 * (which rules m out: K ≥ ½·K⁺) it rules out every smaller m too; likewise the "below" capital
 * upwards. Bisection finds those two edges (about 9 evaluations each); the candidates between them
 * are scanned from each edge inwards to the first one not ruled out, which gives the hull.
 */
export function meanIntervalFromCounts(values: readonly number[], counts: readonly number[], alpha: number): CountMeanInterval {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (values.length !== counts.length) throw new RangeError('one count per value');
  const table = tableFor(values);
  const n = counts.reduce((s, c) => s + c, 0);
  if (n === 0) return { lower: table.low, upper: table.high, n };
  const logLevel = Math.log(1 / alpha);
  const logAlone = logLevel + Math.LN2; // one half of the capital alone at 2/α
  const up = new Float64Array(BETS.length);
  const down = new Float64Array(BETS.length);
  const sides = (j: number) => logSides(table, counts, j, up, down);

  // leftEdge: the largest j whose "above" side alone rules it out (−1: none); monotone in j.
  let lo = -1;
  let hi = GRID;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (sides(mid).up >= logAlone) lo = mid;
    else hi = mid;
  }
  const leftEdge = lo;
  // rightEdge: the smallest j whose "below" side alone rules it out (GRID: none).
  lo = -1;
  hi = GRID;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (sides(mid).down >= logAlone) hi = mid;
    else lo = mid;
  }
  const rightEdge = hi;

  const open = (j: number) => {
    const s = sides(j);
    return logHedged(s.up, s.down) < logLevel;
  };
  let first = -1;
  for (let j = leftEdge + 1; j < rightEdge; j++) {
    if (open(j)) {
      first = j;
      break;
    }
  }
  const scale = (u: number) => table.low + u * (table.high - table.low);
  if (first < 0) {
    // Every candidate ruled out (probability ≤ α): the sample mean, with no width.
    const mean = counts.reduce((s, c, v) => s + c * values[v], 0) / n;
    return { lower: mean, upper: mean, n };
  }
  let last = first;
  for (let j = rightEdge - 1; j > first; j--) {
    if (open(j)) {
      last = j;
      break;
    }
  }
  const lower = first > 0 ? (first - 0.5) / GRID : 0;
  const upper = last < GRID - 1 ? (last + 1.5) / GRID : 1;
  return { lower: scale(lower), upper: scale(upper), n };
}
