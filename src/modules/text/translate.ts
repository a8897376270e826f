import { chatCompletion, type ChatApi, type Fetch } from './chat-api.ts';

/**
 * Optional translation of a summary (docs/insights.md, insights/summary-translation.ts) and of
 * written answers (answers/answer-translations.ts) into the account's language, through an
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
