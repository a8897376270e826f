import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { once } from 'node:events';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import type { Metrics } from '../lib/metrics.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route holds requests open until something happens (wait, MCP): its durations go to the
     * long-poll histogram, not the API's latency one (docs/operations.md "Metrics").
     */
    longPoll?: boolean;
  }
}

/** The path both ways of exposing metrics serve. */
export const METRICS_PATH = '/metrics';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the request carries the metrics token, compared in constant time (hashes of equal length). */
function hasToken(request: FastifyRequest, expected: Buffer): boolean {
  const match = BEARER.exec(request.headers.authorization ?? '');
  return match !== null && timingSafeEqual(digest(match[1]), expected);
}

/**
 * Counts every response (an onResponse hook: the route's pattern, never its URL, so an id never
 * becomes a label; 'unmatched' for a path no route has). Registered before the routes.
 */
export function registerRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  // A callback hook, not an async one: no promise on every response.
  app.addHook('onResponse', (request, reply, done) => {
    const { url, config } = request.routeOptions;
    metrics.observeRequest({
      method: request.method,
      route: url ?? 'unmatched',
      status: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
      longPoll: config?.longPoll === true,
    });
    done();
  });
}

export interface MetricsEndpoint {
  /**
   * The rate limiter's test (app.ts allowList): a request to /metrics with the right token is
   * never limited away from a scraper; one without is counted like any request.
   */
  isScrape(request: FastifyRequest): boolean;
  /** Adds GET /metrics (after the rate limiter, which limits only routes registered after it); nothing without a token. */
  register(app: FastifyInstance): void;
}

/**
 * METRICS_TOKEN: GET /metrics on the public port, to that bearer token only (401 in the error
 * envelope otherwise), hidden from /openapi.json. Null: no such route (a 404 like any unknown path).
 */
export function metricsEndpoint(metrics: Metrics, token: string | null): MetricsEndpoint {
  if (token === null) return { isScrape: () => false, register: () => {} };
  const expected = digest(token);
  return {
    isScrape: (request) => request.routeOptions.url === METRICS_PATH && hasToken(request, expected),
    register(app) {
      app.get(METRICS_PATH, { config: { scope: null }, schema: { hide: true } }, async (request, reply) => {
        if (!hasToken(request, expected)) {
          throw new AppError('unauthorized', 'The metrics need the metrics token: send it as "Authorization: Bearer <METRICS_TOKEN>".', undefined, { 'www-authenticate': 'Bearer realm="metrics"' });
        }
        const text = await metrics.render();
        return reply.header('content-type', metrics.contentType).header('cache-control', 'no-store').send(text);
      });
    },
  };
}

export interface MetricsServer {
  /** The port it listens on. */
  readonly port: number;
  close(): Promise<void>;
}

/**
 * METRICS_PORT: a plain HTTP listener of its own that serves GET /metrics and nothing else, with
 * no token (where it listens is the protection: 127.0.0.1 by default, a private interface for a
 * scraper elsewhere). It runs on worker processes too, which serve no public port.
 */
export async function startMetricsServer(metrics: Metrics, options: { host: string; port: number }): Promise<MetricsServer> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== METRICS_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(path === METRICS_PATH ? 405 : 404, { 'content-type': 'text/plain; charset=utf-8' }).end(path === METRICS_PATH ? 'Only GET.\n' : `Only ${METRICS_PATH} here.\n`);
      return;
    }
    metrics.render().then(
      (text) => response.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' }).end(request.method === 'HEAD' ? undefined : text),
      () => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('The metrics could not be collected.\n'),
    );
  });
  server.listen(options.port, options.host);
  await Promise.race([once(server, 'listening'), once(server, 'error').then(([error]) => Promise.reject(error))]);
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A scraper's kept-alive connection would hold the close for its timeout.
      server.closeAllConnections();
      await closed;
    },
  };
}
