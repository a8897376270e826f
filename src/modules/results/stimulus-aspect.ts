/**
 * The aspect (width / height) of a click test's stimulus image, when the ask found it among our
 * uploads and stored its size on the question row (docs/uploads.md "Click tests"); undefined
 * otherwise. The heatmap (exports/heatmap.ts) draws aspects from MIN_ASPECT to MAX_ASPECT, defined
 * here because exports imports results and not the other way: an image beyond is drawn at the
 * nearest end.
 */
export const MIN_ASPECT = 0.25;
export const MAX_ASPECT = 4;

export function stimulusAspect(row: { stimulus_width: number | null; stimulus_height: number | null }): number | undefined {
  if (!row.stimulus_width || !row.stimulus_height) return undefined;
  return Math.min(MAX_ASPECT, Math.max(MIN_ASPECT, row.stimulus_width / row.stimulus_height));
}
