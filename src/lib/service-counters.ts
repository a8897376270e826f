/**
 * What services count for operators (docs/operations.md "Metrics"), as plain calls: the container
 * hands in the Prometheus-backed counters of lib/metrics.ts, so no service knows prom-client. Each
 * call is an in-memory increment, made once the thing it counts has committed.
 */
export type WebhookOutcome = 'delivered' | 'failed' | 'retry';

export interface ServiceCounters {
  /** An ask that created its question (with any follow-ups), after the commit; a replay is not one. */
  asked(): void;
  /** Answers accepted and stored, per source, after their batch commits. */
  answered(source: string, answers: number): void;
  /** A `refund` ledger row of `credits`, after its transaction commits. */
  refunded(credits: number): void;
  /** One recorded webhook delivery attempt and what became of its delivery. */
  webhookAttempt(outcome: WebhookOutcome): void;
}

/** Counts nothing: the default of every service, so tests and the CLI need no metrics. */
export const NO_COUNTERS: ServiceCounters = {
  asked() {},
  answered() {},
  refunded() {},
  webhookAttempt() {},
};
