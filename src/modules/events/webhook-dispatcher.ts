import type { WebhookDelivery } from './webhook-delivery.service.ts';

/**
 * Runs webhook deliveries continuously in a worker process (docs/webhooks.md "Delivery"): every
 * `pollMs`, and at once whenever an attempt finishes while more may be due, it claims due
 * deliveries for its free slots and attempts them side by side, at most WEBHOOK_PER_ENDPOINT at a
 * time per endpoint (the claim counts every worker's leases). A slow receiver holds at most that
 * many slots, each for at most the timeout; the others keep going.
 *
 * The queue itself is the webhook_deliveries table, written in the transaction of the event:
 * any number of worker processes share it (claims skip each other's rows), and a process that
 * stops or dies leaves nothing behind but leases that run out.
 */
export interface WebhookDispatcher {
  start(): void;
  /** Stops claiming, then waits for attempts in flight (each bounded by the timeout). */
  stop(): Promise<void>;
}

export function createWebhookDispatcher(deps: {
  delivery: Pick<WebhookDelivery, 'claim' | 'attempt'>;
  concurrency: number;
  pollMs: number;
  log: { error(obj: object, msg: string): void };
}): WebhookDispatcher {
  const inFlight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let stopped = true;

  function schedule(ms: number): void {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void tick(), ms);
    timer.unref();
  }

  async function tick(): Promise<void> {
    timer = null;
    if (stopped || running) return;
    running = true;
    let full = false;
    try {
      const free = deps.concurrency - inFlight.size;
      if (free > 0) {
        const claimed = await deps.delivery.claim(free);
        for (const delivery of claimed) {
          const run: Promise<void> = deps.delivery
            .attempt(delivery)
            .catch((error) => deps.log.error({ err: error, endpointId: delivery.endpoint_id, eventId: delivery.event_id }, 'webhook attempt could not be recorded; it is retried when its lease runs out'))
            .finally(() => {
              inFlight.delete(run);
              // A slot is free and more may be due (the same endpoint's next delivery, say).
              schedule(0);
            });
          inFlight.add(run);
        }
        full = claimed.length === free;
      }
    } catch (error) {
      deps.log.error({ err: error }, 'could not claim webhook deliveries');
    } finally {
      running = false;
      schedule(full ? 0 : deps.pollMs);
    }
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await Promise.allSettled([...inFlight]);
    },
  };
}
