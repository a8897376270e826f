import { JOB_EXPIRE, JOB_GO_LIVE, type Container } from '../container.ts';
import type { JobDefinition } from './job-runner.ts';
import { insightsJobs } from '../modules/insights/insights.jobs.ts';

export const JOB_TRANSLATE_ANSWERS = 'answers-translate';

/** Every job of the service, with what runs it. */
export function jobDefinitions(container: Container): JobDefinition[] {
  const idOf = (data: unknown) => String((data as { id?: unknown })?.id ?? '');
  return [
    { name: JOB_GO_LIVE, handler: async (data) => container.lifecycle.goLive(idOf(data)) },
    { name: JOB_EXPIRE, handler: async (data) => container.lifecycle.expire(idOf(data)) },
    // The safety net behind the timers: any transition that is due and was missed.
    { name: 'questions-sweep', cron: '* * * * *', handler: async () => container.lifecycle.sweep() },
    { name: 'idempotency-reap', cron: '17 * * * *', handler: async () => container.asks.reapIdempotencyKeys() },
    {
      name: 'credits-expire',
      cron: '* * * * *',
      handler: async () => {
        // Drain in batches so one run catches up after downtime.
        while ((await container.credits.expireDue(200)) > 0);
      },
    },
    ...insightsJobs(container.insights),
    // Written answers into the account's language, only when a translation engine is configured.
    ...(container.answerTranslations.enabled
      ? [{
          name: JOB_TRANSLATE_ANSWERS,
          cron: '* * * * *',
          handler: async () => {
            // Drain while full batches go through; answers the engine failed on wait for the next run.
            for (;;) {
              const { taken, translated } = await container.answerTranslations.pass(200);
              if (taken < 200 || translated < taken) break;
            }
          },
        }]
      : []),
  ];
}
