import type { ResultFilter } from '../results/filters.ts';

/**
 * Where a Result's `clicks.heatmapUrl` points (docs/results.md "Heatmap"), from PUBLIC_BASE_URL:
 * - the requester's result and wait: `/v2/questions/{id}/heatmap.png` (needs the key, like the
 *   result), with the result's filter so the picture shows the taps the result counts;
 * - the public results page: `/v1/public/results/{code}/heatmap.png` (no credential);
 * - a private share link: `/v1/public/shared/{token}/heatmap.png` (no credential; dies with the link).
 * `aspect` (width / height of the stimulus image) is added when known: when the image is one of
 * our uploads, the ask stores its size on the question (results/stimulus-aspect.ts,
 * docs/uploads.md); for an image hosted elsewhere it is left out and the picture is square unless
 * the client asks.
 */
function withQuery(url: string, params: Array<[string, string | number | undefined]>): string {
  const query = new URLSearchParams();
  for (const [name, value] of params) if (value !== undefined) query.set(name, String(value));
  const text = query.toString();
  return text ? `${url}?${text}` : url;
}

const aspectParam = (aspect: number | undefined): [string, number | undefined] => ['aspect', aspect === undefined ? undefined : Number(aspect.toFixed(4))];

export function heatmapUrls(baseUrl: string) {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    owner(questionId: string, filter: ResultFilter = {}, aspect?: number): string {
      return withQuery(`${base}/v2/questions/${encodeURIComponent(questionId)}/heatmap.png`, [
        ['option', filter.option],
        ['tier', filter.tier],
        ['country', filter.country],
        ['age_band', filter.ageBand],
        ['gender', filter.gender],
        ['q', filter.q],
        aspectParam(aspect),
      ]);
    },
    publicResults(code: string, aspect?: number): string {
      return withQuery(`${base}/v1/public/results/${encodeURIComponent(code)}/heatmap.png`, [aspectParam(aspect)]);
    },
    shared(token: string, aspect?: number): string {
      return withQuery(`${base}/v1/public/shared/${encodeURIComponent(token)}/heatmap.png`, [aspectParam(aspect)]);
    },
  };
}
export type HeatmapUrls = ReturnType<typeof heatmapUrls>;
