import type { Container } from '../container.ts';
import type { JobDefinition } from './job-runner.ts';

/** Every job of the service, with what runs it. */
export function jobDefinitions(container: Container): JobDefinition[] {
  return [
    {
      name: 'credits-expire',
      cron: '* * * * *',
      handler: async () => {
        // Drain in batches so one run catches up after downtime.
        while ((await container.credits.expireDue(200)) === 200);
      },
    },
  ];
}
