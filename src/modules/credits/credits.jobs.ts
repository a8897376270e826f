import { Type } from '@sinclair/typebox';
import { defineJob, type JobDefinition } from '../../lib/job.ts';
import type { CreditsService } from './credits.service.ts';

/** Credits past their expiry leave the balance (docs/credits.md "Expiry"), one account per transaction. */
export function creditsJobs(credits: Pick<CreditsService, 'expireDue'>): JobDefinition[] {
  return [
    defineJob({
      name: 'credits-expire',
      cron: '* * * * *',
      payload: Type.Object({}),
      handler: async () => {
        // Drain in batches so one run catches up after downtime.
        while ((await credits.expireDue(200)) > 0);
      },
    }),
  ];
}
