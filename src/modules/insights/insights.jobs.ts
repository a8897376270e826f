import type { JobDefinition } from '../../jobs/job-runner.ts';
import type { InsightsService } from './insights.service.ts';

/**
 * The final summary of a closed question (spec "Insights kind": `final`, made when the question
 * closes). A periodic pass rather than a job sent by the close: it finds every recent close
 * without its final summary, so a crash, a restart or a close made by another process (the admin
 * CLI, a sweep) is caught up within a minute, and nothing in the closing transaction changes.
 */
export const JOB_INSIGHTS_FINAL = 'insights-final';

export function insightsJobs(insights: InsightsService): JobDefinition[] {
  return [
    {
      name: JOB_INSIGHTS_FINAL,
      cron: '* * * * *',
      handler: async () => {
        // Drain in batches so one run catches up after downtime.
        while ((await insights.finalPass(50)) === 50);
      },
    },
  ];
}
