import { Type } from '@sinclair/typebox';
import { defineJob, type JobDefinition } from '../../lib/job.ts';
import type { LifecycleService } from './lifecycle.service.ts';
import type { AskService } from './ask.service.ts';
import type { ShownPricesService } from './shown-prices.service.ts';

/** A question's timers (docs/lifecycle.md): sent for one question, at the moment it is due. */
export const JOB_GO_LIVE = 'question-go-live';
export const JOB_EXPIRE = 'question-expire';

const QuestionId = Type.Object({ id: Type.String() });
const Periodic = Type.Object({});

export function questionsJobs(deps: { lifecycle: LifecycleService; asks: Pick<AskService, 'reapIdempotencyKeys'>; shownPrices: Pick<ShownPricesService, 'reap'> }): JobDefinition[] {
  return [
    defineJob({ name: JOB_GO_LIVE, payload: QuestionId, handler: async ({ id }) => deps.lifecycle.goLive(id) }),
    defineJob({ name: JOB_EXPIRE, payload: QuestionId, handler: async ({ id }) => deps.lifecycle.expire(id) }),
    // The safety net behind the timers: any transition that is due and was missed.
    defineJob({ name: 'questions-sweep', cron: '* * * * *', payload: Periodic, handler: async () => deps.lifecycle.sweep() }),
    // Idempotency keys are kept 24 h (spec "Idempotency"); the hourly reap deletes the older ones.
    defineJob({ name: 'idempotency-reap', cron: '17 * * * *', payload: Periodic, handler: async () => deps.asks.reapIdempotencyKeys() }),
    // The prices MCP showed are kept an hour (shown-prices.service.ts).
    defineJob({ name: 'shown-prices-reap', cron: '19 * * * *', payload: Periodic, handler: async () => deps.shownPrices.reap() }),
  ];
}
