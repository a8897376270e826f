/**
 * Sizes of groups of heads are shown as bands, never counts (spec "Other public catalogues": the
 * countries' pool bands and the audiences' size band), so nobody can watch a count move to learn
 * who joined or left.
 */
export const SIZE_BANDS = ['under_50', '50_200', '200_1000', '1000_5000', '5000_plus'] as const;
export type SizeBand = (typeof SIZE_BANDS)[number];

export function sizeBand(heads: number): SizeBand {
  if (heads < 50) return 'under_50';
  if (heads < 200) return '50_200';
  if (heads < 1000) return '200_1000';
  if (heads < 5000) return '1000_5000';
  return '5000_plus';
}
