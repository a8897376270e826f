import http from 'node:http';
import { once } from 'node:events';
import { Webhook } from 'standardwebhooks';
import { epochNow } from './long-poll.ts';

/**
 * The customer's side of webhooks for the webhooks scenario: an HTTP server on 127.0.0.1 in the
 * orchestrator process, one path per endpoint (`/hooks/<name>`). Every delivery is verified as a
 * receiver would, with the `standardwebhooks` library and the endpoint's secret
 * (`new Webhook(secret).verify(body, headers)`), and recorded with its arrival time (when its
 * body had been read), its `webhook-id` and the question it reports (`data.question.id`).
 *
 * An endpoint that answers answers 200 at once. A hanging one reads and verifies the delivery
 * and then never answers (the sender's timeout ends the attempt); `close()` drops those
 * connections, so the attempts in flight end at once.
 */
export interface Arrival {
  webhookId: string;
  /** Epoch ms with fractions (performance.timeOrigin + performance.now(), as the ask client's). */
  at: number;
  type: string | null;
  questionId: string | null;
}

export interface ReceivedAt {
  /** Deliveries that verified, in arrival order (a retried one appears again). */
  arrivals: Arrival[];
  /** Requests whose signature (or timestamp) did not verify, or whose body was not an event. */
  invalid: number;
  firstInvalid: string | null;
}

export interface WebhookReceiver {
  /** The URL an endpoint named `name` is registered with. */
  urlOf(name: string): string;
  /** Starts accepting deliveries for `name`, verified with `secret`. */
  add(name: string, secret: string, mode: 'answer' | 'hang'): void;
  received(name: string): ReceivedAt;
  /** Requests a hanging endpoint is holding now. */
  holding(): number;
  /** Ends the held requests (the sender sees the connection drop). */
  releaseHanging(): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const endpoints = new Map<string, { verifier: Webhook; mode: 'answer' | 'hang'; got: ReceivedAt }>();
  const held = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    const name = /^\/hooks\/([^/?]+)$/.exec(request.url ?? '')?.[1];
    const endpoint = name ? endpoints.get(name) : undefined;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = epochNow();
      if (!endpoint || request.method !== 'POST') {
        response.writeHead(404).end();
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(request.headers)) if (typeof value === 'string') headers[key] = value;
      try {
        const event = endpoint.verifier.verify(body, headers) as { type?: unknown; data?: { question?: { id?: unknown } } };
        endpoint.got.arrivals.push({
          webhookId: headers['webhook-id'],
          at,
          type: typeof event?.type === 'string' ? event.type : null,
          questionId: typeof event?.data?.question?.id === 'string' ? event.data.question.id : null,
        });
      } catch (error) {
        endpoint.got.invalid += 1;
        endpoint.got.firstInvalid ??= (error as Error).message;
      }
      if (endpoint.mode === 'hang') {
        held.add(response);
        response.on('close', () => held.delete(response));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  // A hanging request must outlive the sender's timeout (WEBHOOK_TIMEOUT_SECONDS, at most 30 s).
  server.requestTimeout = 0;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('webhook receiver: no TCP address');
  const base = `http://127.0.0.1:${address.port}`;

  const releaseHanging = () => {
    for (const response of held) response.socket?.destroy();
    held.clear();
  };
  return {
    urlOf: (name) => `${base}/hooks/${name}`,
    add(name, secret, mode) {
      endpoints.set(name, { verifier: new Webhook(secret), mode, got: { arrivals: [], invalid: 0, firstInvalid: null } });
    },
    received(name) {
      const got = endpoints.get(name)?.got;
      if (!got) throw new Error(`webhook receiver: no endpoint "${name}"`);
      return got;
    },
    holding: () => held.size,
    releaseHanging,
    async close() {
      releaseHanging();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
