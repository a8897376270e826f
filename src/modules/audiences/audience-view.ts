import { gradePrice } from '../draft/pricing.ts';
import { sizeBand } from '../draft/size-bands.ts';
import type { Audience, GradeMix } from './audiences.schemas.ts';
import type { AudienceRow, GradeCounts } from './audiences.repository.ts';

/**
 * Whole percentages that add up to 100 (largest remainder), so a mix never reads 33+33+33: shares
 * rather than counts (spec: audience sizes are bands, never counts). All zero without members.
 */
export function gradeMix(counts: GradeCounts): GradeMix {
  const total = counts.reduce((sum, n) => sum + n, 0);
  const shares = [0, 0, 0, 0, 0];
  if (total > 0) {
    const exact = counts.map((n) => (n * 100) / total);
    for (let i = 0; i < 5; i++) shares[i] = Math.floor(exact[i] ?? 0);
    let left = 100 - shares.reduce((sum, n) => sum + n, 0);
    const byRemainder = [0, 1, 2, 3, 4].sort((a, b) => (exact[b] ?? 0) - shares[b] - ((exact[a] ?? 0) - shares[a]) || a - b);
    for (const i of byRemainder) {
      if (left === 0) break;
      if ((counts[i] ?? 0) > 0) {
        shares[i]++;
        left--;
      }
    }
  }
  return { grade1: shares[0], grade2: shares[1], grade3: shares[2], grade4: shares[3], grade5: shares[4] };
}

/** The audience record (docs/audiences.md) from its row and its members per grade. */
export function audienceView(row: AudienceRow, counts: GradeCounts = [0, 0, 0, 0, 0]): Audience {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    category: row.category as Audience['category'],
    status: row.status as Audience['status'],
    sizeBand: sizeBand(counts.reduce((sum, n) => sum + n, 0)),
    tags: row.tags,
    grades: row.grades.map((g, i) => ({ grade: i + 1, name: g.name, proves: g.proves, payPence: g.payPence, creditsPerAnswer: gradePrice(g.payPence) })),
    gradeMix: gradeMix(counts),
    openToJoin: row.open_to_join,
    // A private audience is only ever shown to an account that sponsors it.
    sponsored: row.private,
    simulated: row.simulated,
    countries: row.countries,
    languages: row.languages,
  };
}
