import { Type } from '@sinclair/typebox';
import { defineJob, type JobDefinition } from '../../lib/job.ts';
import type { CreditsService } from './credits.service.ts';

export function creditsJobs(credits: Pick<CreditsService, 'expireDue' | 'warnExpiring'>): JobDefinition[] {
  return [
    /** Credits past their expiry leave the balance (docs/credits.md "Expiry"), one account per transaction. */
    defineJob({
      name: 'credits-expire',
      cron: '* * * * *',
      payload: Type.Object({}),
      handler: async () => {
        // Drain in batches so one run catches up after downtime.
        while ((await credits.expireDue(200)) > 0);
      },
    }),
    /**
     * Once a day (08:05 UTC), `credits.expiring` for each lot that expires within 7 days, once per
     * lot: a lot is warned of on the first run after it comes within the week, and a missed run is
     * made up by the next one (docs/credits.md "Expiry").
     */
    defineJob({
      name: 'credits-expiring',
      cron: '5 8 * * *',
      payload: Type.Object({}),
      handler: async () => {
        await credits.warnExpiring(200);
      },
    }),
  ];
}
