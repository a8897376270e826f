import type { Server } from 'node:http';
import type { FastifyHttpOptions, FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { AppError } from '../lib/errors.ts';
import { clientErrorHandler } from './client-errors.ts';

/**
 * The HTTP server's own behaviour, from configuration (README "Configuration"):
 *
 * - `trustProxy` is TRUSTED_PROXIES (RELIABILITY R8.3): by default nobody, so `request.ip`, every
 *   per-IP limit and the human check's `remoteip` are the socket's peer whatever X-Forwarded-For
 *   says.
 * - Timeouts, so slow or silent clients cannot hold sockets (and file descriptors) forever: Node
 *   answers a request whose headers or body do not arrive in time with a 408 (client-errors.ts);
 *   Node checks those deadlines every `connectionsCheckingInterval` (30 s by default, so a stalled
 *   client could stay up to 30 s longer; 1 s here). `connectionTimeout` closes a socket with no
 *   traffic at all, e.g. a client that stopped reading its response; it is longer than wait's 25 s
 *   of silence (config.ts enforces at least 30 s). Node's requestTimeout covers receiving the
 *   request only, so a long-poll is not cut by it.
 * - Fastify's own shutdown 503 (`return503OnClosing`) has its own body; ours (registerClosing) is in
 *   the error envelope.
 */
type Options = Pick<FastifyHttpOptions<Server>, 'trustProxy' | 'requestTimeout' | 'keepAliveTimeout' | 'connectionTimeout' | 'http' | 'clientErrorHandler' | 'return503OnClosing'>;

export function serverOptions(config: Pick<Config, 'trustedProxies' | 'httpTimeouts'>): Options {
  const { requestMs, headersMs, keepAliveMs, idleMs } = config.httpTimeouts;
  const proxies = config.trustedProxies;
  return {
    // A hop count as the function Fastify itself makes of a number (its types take no number).
    trustProxy: proxies === false ? false : typeof proxies === 'number' ? (_address: string, hop: number) => hop < proxies : [...proxies],
    requestTimeout: requestMs,
    keepAliveTimeout: keepAliveMs,
    connectionTimeout: idleMs,
    http: { headersTimeout: headersMs, connectionsCheckingInterval: 1000 },
    clientErrorHandler,
    return503OnClosing: false,
  };
}

/**
 * While the server closes (SIGTERM), requests that still arrive on open keep-alive connections
 * get 503 `service_unavailable` in the envelope, with Retry-After and Connection: close, before
 * any other hook runs (no rate-limit count, no credential lookup). Register it first: the flag is
 * set by the first preClose hook, in the same tick as Fastify stops routing new requests normally.
 */
export function registerClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done();
    reply.header('connection', 'close');
    done(new AppError('service_unavailable', 'The service is shutting down; retry after the Retry-After header.', undefined, { 'retry-after': '5' }));
  });
}
