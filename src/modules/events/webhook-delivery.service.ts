import { TURNED_OFF } from './events.repository.ts';
import type { Db } from '../../db/database.ts';
import { afterCommit, inTransaction } from '../../db/transaction.ts';
import { NO_COUNTERS, type ServiceCounters } from '../../lib/service-counters.ts';
import { systemClock, type Clock } from '../../lib/clock.ts';
import type { Rng } from '../../lib/random.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { OutboundError, type OutboundOptions, type OutboundResponse } from '../../lib/outbound-http.ts';
import type { AttemptTarget, DeliveryRow, WebhookDeliveriesRepository } from './webhook-deliveries.repository.ts';
import type { EndpointRow, WebhookEndpointsRepository } from './webhook-endpoints.repository.ts';
import { DISABLE_AFTER_MS, nextDelayMs, retryAfterMs } from './webhook-schedule.ts';
import { signedHeaders } from './webhook-signing.ts';

/** What is kept of a receiver's answer for the delivery log. */
const RESPONSE_EXCERPT_BYTES = 1024;
const USER_AGENT = 'Headcount-Webhooks/1 (+https://www.standardwebhooks.com)';

type Send = (url: string, options: OutboundOptions) => Promise<OutboundResponse>;

export interface WebhookDeliveryDeps {
  db: Db;
  repo: WebhookDeliveriesRepository;
  endpoints: WebhookEndpointsRepository;
  box: SecretBox;
  clock: Clock;
  rng: Rng;
  /** lib/outbound-http.ts's outboundRequest with this deployment's address rules. */
  send: Send;
  timeoutMs: number;
  /** Attempts in flight to one endpoint at most, all workers together (WEBHOOK_PER_ENDPOINT). */
  perEndpoint: number;
  /** Tells the account's owners an endpoint was turned off (after the commit). */
  endpointDisabled(endpoint: EndpointRow): Promise<void>;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Operators' counters (docs/operations.md "Metrics"): attempts by outcome; default: none. */
  counters?: Pick<ServiceCounters, 'webhookAttempt'>;
}

interface Outcome {
  status: number | null;
  error: string | null;
  durationMs: number;
  body: string | null;
  retryAfterMs: number | null;
}

/**
 * Sends webhook deliveries (docs/webhooks.md "Delivery"): claims due deliveries, makes one
 * attempt at each with no transaction open and no request waiting on it, then records the
 * attempt and schedules the next in one short transaction. At-least-once: an attempt counted and
 * never recorded (the process died) is made again when its lease runs out, with the same
 * `webhook-id`.
 */
export function createWebhookDelivery(deps: WebhookDeliveryDeps) {
  const { repo, endpoints, box, clock } = deps;
  const counters = deps.counters ?? NO_COUNTERS;
  // A claimed delivery is given back when its attempt cannot have finished: the whole exchange
  // is bounded by the timeout, and recording it takes a moment more.
  const leaseMs = deps.timeoutMs * 3;

  async function exchange(url: string, headers: Record<string, string>, body: string): Promise<Outcome> {
    const started = performance.now();
    try {
      const response = await deps.send(url, { method: 'POST', headers, body, timeoutMs: deps.timeoutMs, maxBodyBytes: RESPONSE_EXCERPT_BYTES, redirects: 0 });
      const retryAfter = response.status === 429 || response.status === 503 ? retryAfterMs(response.headers['retry-after'], clock.now()) : null;
      return { status: response.status, error: null, durationMs: response.durationMs, body: response.body.toString('utf8').replace(/\uFFFD+$/, ''), retryAfterMs: retryAfter };
    } catch (error) {
      const message = error instanceof OutboundError ? error.message : 'The request failed.';
      if (!(error instanceof OutboundError) || error.code === 'request_failed') deps.log.warn({ err: error, url }, 'webhook attempt failed unexpectedly');
      return { status: null, error: message, durationMs: Math.round(performance.now() - started), body: null, retryAfterMs: null };
    }
  }

  /** The secrets in force (the current one, and the previous one for a day after a rotation); null when they cannot be opened. */
  function openSecrets(target: AttemptTarget, at: Date): string[] | null {
    const open = (sealed: string) => {
      try {
        return box.open(sealed, target.endpoint_id);
      } catch (error) {
        deps.log.error({ err: error, endpointId: target.endpoint_id }, 'webhook secret cannot be opened with the configured keys');
        return null;
      }
    };
    const current = open(target.secret_box);
    if (current === null) return null;
    // A previous secret that cannot be opened (the reason it was rotated, say) just stops signing.
    const previous = target.previous_secret_box && target.previous_secret_until && target.previous_secret_until > at ? open(target.previous_secret_box) : null;
    return previous === null ? [current] : [current, previous];
  }

  function describe(outcome: Outcome): string {
    return outcome.status !== null ? `HTTP ${outcome.status}` : (outcome.error ?? 'no response');
  }

  /** One attempt at a claimed delivery. */
  async function attempt(claimed: DeliveryRow): Promise<void> {
    const target = await repo.target(claimed.endpoint_id, claimed.event_id);
    if (!target) return; // the endpoint was deleted meanwhile
    const at = clock.now();
    if (!target.enabled) {
      await inTransaction(deps.db, (tx) => repo.failPending(target.endpoint_id, TURNED_OFF, at, tx));
      return;
    }
    // jsonb gives the same key order on every read, so every attempt sends the same bytes.
    const body = JSON.stringify(target.payload);
    const secrets = openSecrets(target, at);
    const outcome = secrets
      ? await exchange(target.url, {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        // webhook-timestamp is read against the receiver's own clock (its replay window), so it is
        // the machine's real time even where the service runs on an injected one (tests' fake clock).
        ...signedHeaders({ eventId: target.event_id, at: systemClock.now(), body, secrets }),
      }, body)
      : { status: null, error: 'The signing secret cannot be read (the key that sealed it is not configured); rotate the endpoint\'s secret.', durationMs: 0, body: null, retryAfterMs: null };

    const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    const gone = outcome.status === 410;
    const delay = ok || gone ? null : nextDelayMs(claimed.attempts - target.schedule_from, deps.rng, outcome.retryAfterMs);
    const next = ok
      ? { status: 'succeeded' as const, nextAttemptAt: null, error: null }
      : delay === null
        ? { status: 'failed' as const, nextAttemptAt: null, error: outcome.error }
        // Counted from the attempt's end: a receiver that timed out gets its full pause too.
        : { status: 'pending' as const, nextAttemptAt: new Date(clock.now().getTime() + delay), error: outcome.error };

    const disabled = await inTransaction(deps.db, async (tx) => {
      const recorded = await repo.recordAttempt(
        { endpoint_id: target.endpoint_id, event_id: target.event_id, attempt: claimed.attempts, at, status: outcome.status, error: outcome.error, duration_ms: outcome.durationMs, response_body: outcome.body },
        next,
        tx,
      );
      if (!recorded) return null;
      // Counted once the attempt is on record (an attempt whose lease ran out is made again).
      afterCommit(tx, () => counters.webhookAttempt(ok ? 'delivered' : next.status === 'failed' ? 'failed' : 'retry'));
      const endpoint = await endpoints.recordAttempt(target.endpoint_id, { at, status: outcome.status, ok }, tx);
      if (!endpoint || ok || !endpoint.enabled) return null;
      const failingFor = endpoint.failing_since ? at.getTime() - endpoint.failing_since.getTime() : 0;
      if (!gone && failingFor < DISABLE_AFTER_MS) return null;
      const reason = gone
        ? 'The receiver answered 410 Gone: it asked for no more deliveries.'
        : `Every delivery failed for ${Math.round(failingFor / 3_600_000)} hours (last: ${describe(outcome)}).`;
      const off = await endpoints.update(endpoint.id, { enabled: false, disabled_reason: reason, updated_at: at }, tx);
      await repo.failPending(endpoint.id, TURNED_OFF, at, tx);
      return off;
    });
    if (disabled) {
      deps.log.warn({ endpointId: disabled.id, accountId: disabled.account_id, reason: disabled.disabled_reason }, 'webhook endpoint turned off');
      await deps.endpointDisabled(disabled).catch((error) => deps.log.error({ err: error, endpointId: disabled.id }, 'could not tell the owners a webhook endpoint was turned off'));
    }
  }

  return {
    /** Claims up to `limit` due deliveries (see the repository), leased for one attempt. */
    claim(limit: number): Promise<DeliveryRow[]> {
      const now = clock.now();
      return repo.claimDue({ now, leaseUntil: new Date(now.getTime() + leaseMs), limit, perEndpoint: deps.perEndpoint });
    },

    attempt,

    /**
     * Attempts everything due now, `concurrency` at a time, until nothing is due (the CLI and
     * tests; the dispatcher does the same continuously). Returns the attempts made.
     */
    async deliverDue(concurrency = 16): Promise<number> {
      let made = 0;
      for (;;) {
        const claimed = await this.claim(concurrency);
        if (claimed.length === 0) return made;
        await Promise.all(claimed.map((d) => attempt(d)));
        made += claimed.length;
      }
    },
  };
}
export type WebhookDelivery = ReturnType<typeof createWebhookDelivery>;
