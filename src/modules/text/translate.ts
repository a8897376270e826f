import { chatCompletion, type ChatApi, type Fetch } from '../insights/remote-engine.ts';
import type { Summary } from '../insights/insights.engine.ts';
import type { Insights } from '../insights/insights.schemas.ts';

/**
 * Optional translation of a summary (docs/insights.md) and of written answers (answers/
 * answer-translations.ts) into the account's language, through an
 * OpenAI-compatible chat-completions API when TRANSLATE_API_URL and TRANSLATE_MODEL are set.
 * Without one, or when it fails or answers with the wrong number of strings, the summary stays in
 * the question's language and `original` is null.
 */
export interface Translator {
  /** False for noTranslator: nothing is ever translated. */
  readonly enabled: boolean;
  /** The strings in `to`, in order; null when they cannot be translated. */
  translate(texts: string[], from: string, to: string): Promise<string[] | null>;
}

export const noTranslator: Translator = { enabled: false, translate: async () => null };

export function createApiTranslator(api: ChatApi, log: { warn(obj: object, msg: string): void }, fetchImpl: Fetch = fetch): Translator {
  return {
    enabled: true,
    async translate(texts, from, to) {
      if (texts.length === 0) return [];
      const system =
        `Translate each string of "texts" from the language "${from}" into the language "${to}". ` +
        'Reply with one JSON object only: {"translations": string[]}, one translation per string, in the same order.';
      try {
        const content = await chatCompletion(api, [{ role: 'system', content: system }, { role: 'user', content: JSON.stringify({ texts }) }], fetchImpl);
        const raw = JSON.parse(content.replace(/^```(?:json)?\s*|\s*```$/g, '')) as { translations?: unknown };
        const out = raw.translations;
        if (Array.isArray(out) && out.length === texts.length && out.every((t) => typeof t === 'string' && t.trim() !== '')) return out as string[];
        log.warn({ expected: texts.length }, 'translation answer refused');
      } catch (error) {
        log.warn({ err: error }, 'translation failed');
      }
      return null;
    },
  };
}

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
