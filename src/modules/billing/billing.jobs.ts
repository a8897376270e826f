import { Type } from '@sinclair/typebox';
import { defineJob, type JobDefinition } from '../../lib/job.ts';
import type { PaymentEventsService } from './payment-events.service.ts';

/** Checkouts not paid in time are given up on (docs/payments.md "Expiry"): an awaited transfer's pending row is reversed. */
export function billingJobs(paymentEvents: Pick<PaymentEventsService, 'expireOverdue'>): JobDefinition[] {
  return [
    defineJob({
      name: 'checkouts-expire',
      cron: '*/10 * * * *',
      payload: Type.Object({}),
      handler: async () => {
        await paymentEvents.expireOverdue();
      },
    }),
  ];
}
