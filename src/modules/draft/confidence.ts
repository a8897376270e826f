/**
 * How sure a result is that its leader really leads (docs/lifecycle.md): the leader's share and
 * the runner-up's are compared with Wilson score intervals. `high` when they do not overlap at
 * 99%, `medium` at 95%, `low` otherwise; null with no answers. The results module reuses this
 * for `summary.confidence`.
 */
export type Confidence = 'low' | 'medium' | 'high';

export function wilson(count: number, total: number, z: number): { low: number; high: number } {
  if (total === 0) return { low: 0, high: 0 };
  const p = count / total;
  const denominator = 1 + (z * z) / total;
  const centre = p + (z * z) / (2 * total);
  const spread = z * Math.sqrt((p * (1 - p)) / total + (z * z) / (4 * total * total));
  return { low: Math.max(0, (centre - spread) / denominator), high: Math.min(1, (centre + spread) / denominator) };
}

export function leaderConfidence(counts: number[], total: number): Confidence | null {
  if (total === 0 || counts.length === 0) return null;
  const [first, second = 0] = [...counts].sort((a, b) => b - a);
  if (wilson(first, total, 2.576).low > wilson(second, total, 2.576).high) return 'high';
  if (wilson(first, total, 1.96).low > wilson(second, total, 1.96).high) return 'medium';
  return 'low';
}

const RANK: Record<Confidence, number> = { low: 1, medium: 2, high: 3 };

export function meets(actual: Confidence | null, wanted: Confidence | null): boolean {
  if (!wanted) return true;
  return actual !== null && RANK[actual] >= RANK[wanted];
}
