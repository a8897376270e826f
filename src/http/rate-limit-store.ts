import type { Redis } from 'ioredis';

/**
 * A store for @fastify/rate-limit that lets a request cost half (spec: "the estimate counts as
 * half a request"). The library counts every request as one and offers no weights, so this store
 * counts in half-units: a normal request adds 2, a half-cost one (key ending in HALF_COST_SUFFIX)
 * adds 1, and it reports ceil(units / 2) as the request count; with an integer `max`,
 * ceil(u/2) > max exactly when u > 2·max, so the limit and headers stay in whole requests.
 * With Redis the counter is shared by every process (R6.3).
 */
export const HALF_COST_SUFFIX = '~half';

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

export function createWeightedStore(redis: Redis | null, namespace = 'hc:rl:') {
  if (redis) redis.defineCommand('hcRateLimit', { numberOfKeys: 1, lua: LUA });
  const windows = new Map<string, { units: number; resetAt: number }>();
  let lastSweep = Date.now();

  return class WeightedStore {
    incr(rawKey: string, callback: Callback, timeWindow: number = 60_000): void {
      const { key, units } = split(rawKey);
      if (redis) {
        (redis as unknown as { hcRateLimit: (k: string, w: number, u: number) => Promise<[number, number]> })
          .hcRateLimit(namespace + key, timeWindow, units)
          .then(([total, ttl]) => callback(null, { current: Math.ceil(total / 2), ttl }))
          .catch((error: Error) => callback(error));
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
