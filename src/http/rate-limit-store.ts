import { createRequire } from 'node:module';
import type { Redis, Result } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';

// The Lua command defined below (defineCommand), typed as ioredis documents for custom commands.
declare module 'ioredis' {
  interface RedisCommander<Context> {
    hcRateLimit(key: string, windowMs: number, units: number): Result<[number, number], Context>;
  }
}

/**
 * A store for @fastify/rate-limit that lets a request cost half (spec: "the estimate counts as
 * half a request"). The library counts every request as one and offers no weights, so this store
 * counts in half-units: a normal request adds 2, a half-cost one (key ending in HALF_COST_SUFFIX)
 * adds 1, and it reports ceil(units / 2) as the request count; with an integer `max`,
 * ceil(u/2) > max exactly when u > 2·max, so the limit and headers stay in whole requests.
 * With Redis the counter is shared by every process (R6.3). When Redis fails (unreachable, or no
 * reply within the client's commandTimeout) incr reports the error to `onRedisError` and to the
 * plugin, which is registered with skipOnError: the request passes unlimited (fail open) rather
 * than failing; money limits live in PostgreSQL and never depend on Redis.
 */
export const HALF_COST_SUFFIX = '~half';

export interface WeightedStoreOptions {
  /** Prefix of the keys in Redis (RATE_LIMIT_REDIS_PREFIX). */
  namespace?: string;
  /** Called when a Redis call fails and the request is let through uncounted. */
  onRedisError?: (error: Error) => void;
}

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

const LUA = `
local units = redis.call('INCRBY', KEYS[1], ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {units, ttl}
`;

function split(key: string): { key: string; units: number } {
  return key.endsWith(HALF_COST_SUFFIX) ? { key: key.slice(0, -HALF_COST_SUFFIX.length), units: 1 } : { key, units: 2 };
}

export function createWeightedStore(redis: Redis | null, options: WeightedStoreOptions = {}) {
  const { namespace = 'hc:rl:', onRedisError = () => {} } = options;
  if (redis) redis.defineCommand('hcRateLimit', { numberOfKeys: 1, lua: LUA });
  const windows = new Map<string, { units: number; resetAt: number }>();
  let lastSweep = Date.now();
  const fail = (error: Error, callback: Callback) => {
    onRedisError(error);
    callback(error);
  };

  return class WeightedStore {
    incr(rawKey: string, callback: Callback, timeWindow: number = 60_000): void {
      const { key, units } = split(rawKey);
      if (redis) {
        // Between reconnect attempts ioredis would queue the call until the next attempt fails
        // (up to seconds): while the connection is known to be down, fail at once instead.
        if (redis.status === 'reconnecting' || redis.status === 'close' || redis.status === 'end') {
          fail(new Error(`Redis is not connected (${redis.status})`), callback);
          return;
        }
        let settled = false;
        const settle = (error: Error | null, result?: { current: number; ttl: number }) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          if (error) fail(error, callback);
          else callback(null, result);
        };
        // Our own timeout rather than ioredis's commandTimeout: after the event loop has been
        // blocked or the process starved of CPU for longer than the timeout (a busy machine), the
        // timers phase runs before the poll phase that would read a reply already waiting on the
        // socket, so a plain timer fails open on a healthy Redis. Deferring the verdict with
        // setImmediate (the check phase, after poll) lets a waiting reply win first.
        const timer = setTimeout(
          () => setImmediate(() => settle(new Error(`Redis did not answer within ${REDIS_COMMAND_TIMEOUT_MS} ms`))),
          REDIS_COMMAND_TIMEOUT_MS,
        );
        redis
          .hcRateLimit(namespace + key, timeWindow, units)
          .then(
            ([total, ttl]) => settle(null, { current: Math.ceil(total / 2), ttl }),
            (error: Error) => settle(error),
          );
        return;
      }
      const now = Date.now();
      if (now - lastSweep > timeWindow) {
        for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k);
        lastSweep = now;
      }
      let window = windows.get(key);
      if (!window || window.resetAt <= now) {
        window = { units: 0, resetAt: now + timeWindow };
        windows.set(key, window);
      }
      window.units += units;
      callback(null, { current: Math.ceil(window.units / 2), ttl: window.resetAt - now });
    }

    child(): WeightedStore {
      return this;
    }
  };
}

/** The longest a request waits for Redis (a hung server) before it passes uncounted. */
export const REDIS_COMMAND_TIMEOUT_MS = 1_000;
const WARN_EVERY_MS = 60_000;

/**
 * The rate limits' Redis client (REDIS_URL) and its warnings: a connection error, and a request let
 * through uncounted, each logged at most once a minute; one line when Redis is reachable again.
 * The service starts and serves whether or not Redis is up.
 */
export function connectRateLimitRedis(url: string, log: Pick<FastifyBaseLogger, 'warn' | 'info'>) {
  // ioredis's own commandTimeout only frees commands a hung server never answers; the request
  // itself stops waiting after REDIS_COMMAND_TIMEOUT_MS (see WeightedStore.incr).
  // Loaded only with REDIS_URL: ioredis is ~65 ms of every start otherwise (issue 15).
  const { Redis: RedisClient } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
  const redis = new RedisClient(url, { maxRetriesPerRequest: 1, commandTimeout: 10 * REDIS_COMMAND_TIMEOUT_MS });
  let connectionWarnedAt = 0;
  let failOpenWarnedAt = 0;
  redis.on('error', (error: Error) => {
    if (Date.now() - connectionWarnedAt < WARN_EVERY_MS) return;
    connectionWarnedAt = Date.now();
    log.warn({ err: error }, 'Redis for rate limits: connection error');
  });
  redis.on('ready', () => {
    if (connectionWarnedAt === 0 && failOpenWarnedAt === 0) return;
    connectionWarnedAt = failOpenWarnedAt = 0;
    log.info('Redis for rate limits is reachable again: rate limits are enforced again');
  });
  return {
    redis,
    onRedisError(error: Error): void {
      if (Date.now() - failOpenWarnedAt < WARN_EVERY_MS) return;
      failOpenWarnedAt = Date.now();
      log.warn({ err: error }, 'Redis for rate limits is unavailable: rate limits are not enforced (requests pass uncounted) until it is back');
    },
    async close(): Promise<void> {
      try {
        await redis.quit();
      } catch {
        redis.disconnect();
      }
    },
  };
}
