import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Translator } from '../text/translate.ts';
import type { AnswersRepository, AnswerToTranslate } from './answers.repository.ts';

/**
 * Translations of written answers (docs/results.md "Translations"). When a translation engine is
 * configured (TRANSLATE_API_URL, TRANSLATE_MODEL) and a question is asked in another language
 * than its account's, each answer's text and reason are translated into the account's language
 * and stored with the answer; results then carry `translatedText`, `translatedReason` and
 * `translationLanguage`, and the `q` filter searches the translations too.
 *
 * A background pass, never the answer's own request: recording an answer must not wait on a
 * remote engine. The pass looks at questions that are live or closed in the last day, takes their
 * written answers not yet translated (oldest first), and sends each question's answers to the
 * engine in batches, one call per batch. An answer the engine fails on is tried again on the next
 * passes, MAX_ATTEMPTS times at most. Each question whose answers changed is announced as
 * changed, so cached results (in every process) pick the translations up.
 */
export const TRANSLATION_BATCH = 40;
export const MAX_ATTEMPTS = 3;
/** Closed questions keep getting their late translations for this long. */
const RECENT_MS = 24 * 3600 * 1000;

const base = (language: string) => language.toLowerCase().split(/[-_]/)[0];

export function createAnswerTranslations(deps: { db: Db; repo: AnswersRepository; clock: Clock; translator: Translator; changed(questionId: string): void }) {
  const { db, repo, clock, translator } = deps;

  /** Translates one batch of one question's answers; false when the engine gave nothing usable. */
  async function translateBatch(batch: AnswerToTranslate[]): Promise<boolean> {
    const { from, to } = batch[0];
    const texts: string[] = [];
    for (const a of batch) {
      if (a.text) texts.push(a.text);
      if (a.reason) texts.push(a.reason);
    }
    const out = await translator.translate(texts, from, to);
    return inTransaction(db, async (tx) => {
      if (!out) {
        await repo.countTranslationAttempt(batch.map((a) => a.id), tx);
        return false;
      }
      let k = 0;
      for (const a of batch) {
        const translatedText = a.text ? out[k++] : null;
        const translatedReason = a.reason ? out[k++] : null;
        // Only if still waiting: another process may have translated it meanwhile.
        await repo.saveTranslation(a.id, { text: translatedText, reason: translatedReason, to }, tx);
      }
      return true;
    });
  }

  return {
    /** Whether answers get translated at all (an engine is configured). */
    enabled: translator.enabled,

    /**
     * One pass over up to `limit` waiting answers: how many it took, and how many of those are
     * translated now (the rest wait for a later pass).
     */
    async pass(limit = 200): Promise<{ taken: number; translated: number }> {
      if (!translator.enabled) return { taken: 0, translated: 0 };
      const waiting = await repo.waitingForTranslation(new Date(clock.now().getTime() - RECENT_MS), MAX_ATTEMPTS, limit);
      const byQuestion = new Map<string, AnswerToTranslate[]>();
      for (const a of waiting) {
        if (base(a.from) === base(a.to)) continue;
        const list = byQuestion.get(a.question_id) ?? byQuestion.set(a.question_id, []).get(a.question_id)!;
        list.push(a);
      }
      let translated = 0;
      for (const [questionId, answers] of byQuestion) {
        let any = false;
        for (let i = 0; i < answers.length; i += TRANSLATION_BATCH) {
          const batch = answers.slice(i, i + TRANSLATION_BATCH);
          if (await translateBatch(batch)) {
            translated += batch.length;
            any = true;
          }
        }
        if (any) deps.changed(questionId);
      }
      return { taken: waiting.length, translated };
    },
  };
}
export type AnswerTranslations = ReturnType<typeof createAnswerTranslations>;
