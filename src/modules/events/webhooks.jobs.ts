import { Type } from '@sinclair/typebox';
import { defineJob, type JobDefinition } from '../../lib/job.ts';
import type { Clock } from '../../lib/clock.ts';
import type { WebhookDeliveriesRepository } from './webhook-deliveries.repository.ts';

/** Finished deliveries and their attempts are kept this long for inspection (docs/webhooks.md). */
export const DELIVERY_LOG_DAYS = 30;

export function webhooksJobs(deps: { deliveries: Pick<WebhookDeliveriesRepository, 'pruneCompleted'>; clock: Clock }): JobDefinition[] {
  return [
    defineJob({
      name: 'webhook-log-prune',
      cron: '41 3 * * *',
      payload: Type.Object({}),
      handler: async () => {
        const before = new Date(deps.clock.now().getTime() - DELIVERY_LOG_DAYS * 86_400_000);
        while ((await deps.deliveries.pruneCompleted(before, 1000)) > 0);
      },
    }),
  ];
}
