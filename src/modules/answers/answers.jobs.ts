import { Type } from '@sinclair/typebox';
import { defineJob, type JobDefinition } from '../../lib/job.ts';
import type { AnswerTranslations } from './answer-translations.ts';

export const JOB_TRANSLATE_ANSWERS = 'answers-translate';

/** Written answers into the account's language, only when a translation engine is configured. */
export function answersJobs(translations: Pick<AnswerTranslations, 'enabled' | 'pass'>): JobDefinition[] {
  if (!translations.enabled) return [];
  return [
    defineJob({
      name: JOB_TRANSLATE_ANSWERS,
      cron: '* * * * *',
      payload: Type.Object({}),
      handler: async () => {
        // Drain while full batches go through; answers the engine failed on wait for the next run.
        for (;;) {
          const { taken, translated } = await translations.pass(200);
          if (taken < 200 || translated < taken) break;
        }
      },
    }),
  ];
}
