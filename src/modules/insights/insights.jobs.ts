import { Type } from '@sinclair/typebox';
import { defineJob, type JobDefinition } from '../../lib/job.ts';
import type { InsightsService } from './insights.service.ts';

/**
 * The final summary of a closed question (spec "Insights kind": `final`, made when the question
 * closes). A periodic pass rather than a job sent by the close: it finds every recent close
 * without its final summary, so a crash, a restart or a close made by another process (the admin
 * CLI, a sweep) is caught up within a minute, and nothing in the closing transaction changes.
 */
export const JOB_INSIGHTS_FINAL = 'insights-final';

export function insightsJobs(insights: Pick<InsightsService, 'finalPass'>): JobDefinition[] {
  return [
    defineJob({
      name: JOB_INSIGHTS_FINAL,
      cron: '* * * * *',
      payload: Type.Object({}),
      handler: async () => {
        // Drain in batches so one run catches up after downtime.
        while ((await insights.finalPass(50)) === 50);
      },
    }),
  ];
}
