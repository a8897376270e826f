import type { Container } from '../container.ts';
import type { JobDefinition } from '../lib/job.ts';
import { questionsJobs } from '../modules/questions/questions.jobs.ts';
import { creditsJobs } from '../modules/credits/credits.jobs.ts';
import { insightsJobs } from '../modules/insights/insights.jobs.ts';
import { answersJobs } from '../modules/answers/answers.jobs.ts';
import { billingJobs } from '../modules/billing/billing.jobs.ts';
import { connectionsJobs } from '../modules/connections/connections.jobs.ts';
import { webhooksJobs } from '../modules/events/webhooks.jobs.ts';
import { accountsJobs } from '../modules/accounts/accounts.jobs.ts';
import { uploadsJobs } from '../modules/uploads/uploads.jobs.ts';

/** Every job of the service, each declared beside its feature (`<feature>.jobs.ts`). */
export function jobDefinitions(container: Container): JobDefinition[] {
  return [
    ...questionsJobs({ lifecycle: container.lifecycle, asks: container.asks, shownPrices: container.shownPrices }),
    ...creditsJobs(container.credits),
    ...insightsJobs(container.insights),
    ...answersJobs(container.answerTranslations),
    ...billingJobs(container.paymentEvents),
    ...connectionsJobs(container.oauthStore),
    ...webhooksJobs({ deliveries: container.webhookDeliveriesRepo, clock: container.clock }),
    ...accountsJobs(container.formNonces),
    ...uploadsJobs(container.uploads),
  ];
}
