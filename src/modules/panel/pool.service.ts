import type { Clock } from '../../lib/clock.ts';
import type { PoolCount, PoolQuery, PoolRepository } from './pool.repository.ts';

/**
 * Pool sizes for estimates. A form re-estimates on every keystroke with the same targeting, and
 * the panel changes slowly, so counts are cached for a short while per targeting.
 */
const TTL_MS = 30_000;
const MAX_ENTRIES = 2_000;

export function createPoolService(deps: { repo: PoolRepository; clock: Clock }) {
  const cache = new Map<string, { at: number; value: PoolCount }>();
  return {
    async count(query: PoolQuery): Promise<PoolCount> {
      const key = JSON.stringify([
        query.tier,
        [...query.countries].sort(),
        [...query.tags].sort(),
        [...(query.ageBands ?? [])].sort(),
        [...(query.genders ?? [])].sort(),
        query.verifiedAge === true,
        query.audience ? [query.audience.id, query.audience.minGrade] : null,
      ]);
      const now = deps.clock.now();
      const hit = cache.get(key);
      if (hit && now.getTime() - hit.at < TTL_MS) return hit.value;
      const value = await deps.repo.count(query, now);
      if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
      cache.set(key, { at: now.getTime(), value });
      return value;
    },
  };
}
export type PoolService = ReturnType<typeof createPoolService>;
