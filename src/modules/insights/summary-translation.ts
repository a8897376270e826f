import type { Translator } from '../text/translate.ts';
import type { Summary } from './insights.engine.ts';
import type { Insights } from './insights.schemas.ts';

/**
 * The summary in the account's language, with the question-language version kept as `original`;
 * unchanged (and `original` null) when the languages are the same or nothing could translate it.
 */
export async function translateSummary(
  summary: Summary,
  from: string,
  to: string,
  translator: Translator,
): Promise<{ takeaway: string; themes: Summary['themes']; original: Insights['original'] }> {
  const same = { takeaway: summary.takeaway, themes: summary.themes, original: null };
  if (from.slice(0, 2).toLowerCase() === to.slice(0, 2).toLowerCase()) return same;
  const texts = [summary.takeaway, ...summary.themes.flatMap((t) => [t.label, ...t.quotes])];
  const out = await translator.translate(texts, from, to);
  if (!out) return same;
  let k = 1;
  const themes = summary.themes.map((t) => {
    const label = out[k++];
    const quotes = t.quotes.map(() => out[k++]);
    return { ...t, label, quotes };
  });
  return {
    takeaway: out[0],
    themes,
    original: { takeaway: summary.takeaway, themes: summary.themes.map((t) => ({ label: t.label, quotes: t.quotes })) },
  };
}
