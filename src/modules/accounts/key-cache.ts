import { EVERY_KEY, type Notifier } from '../../lib/notifier.ts';

/** What the cache needs of the notifier: key changes, and whether every change is heard. */
export type KeyChanges = Pick<Notifier, 'hearsEveryChange' | 'subscribeKeys'>;

/**
 * API key lookups kept in memory (docs/performance.md "The API key cache"), so an authenticated
 * request needs no statement to know its key. Exact, not a time-to-live guess: an entry is used
 * only while the notifier hears every change to api_keys (the database's own trigger announces
 * each one, migration 0022; on the embedded database everything another program does through the
 * socket drops every entry), and a change drops the key's entries before any later request is
 * served. A lookup that raced with a change is not kept (the generation moved while it ran).
 * Entries also expire after `ttlMs` (the key's last_used_at is written then, and a LISTEN
 * connection that died without a word cannot keep an entry longer). Only live keys are kept;
 * unknown and revoked keys are looked up every time, as before.
 */
export function createKeyCache<T extends { keyId: string | null }>(changes: KeyChanges, options: { ttlMs: number; maxEntries?: number }) {
  const { ttlMs, maxEntries = 10_000 } = options;
  const entries = new Map<string, { value: T; at: number }>();
  let generation = 0;

  changes.subscribeKeys((keyId) => {
    generation += 1;
    if (keyId === EVERY_KEY) entries.clear();
    else for (const [hash, entry] of entries) if (entry.value.keyId === keyId) entries.delete(hash);
  });

  return {
    /** The live key with this secret hash, as looked up less than ttlMs ago; undefined to look it up. */
    get(hash: string, now: number): T | undefined {
      if (entries.size === 0) return undefined;
      if (!changes.hearsEveryChange()) {
        entries.clear();
        return undefined;
      }
      const entry = entries.get(hash);
      if (!entry) return undefined;
      if (now - entry.at >= ttlMs || now < entry.at) {
        entries.delete(hash);
        return undefined;
      }
      return entry.value;
    },

    /** Taken before a lookup and handed to put(): a change heard in between keeps the lookup out. */
    generation: () => generation,

    put(hash: string, value: T, now: number, lookedUpAt: number): void {
      if (lookedUpAt !== generation || !changes.hearsEveryChange()) return;
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(hash, { value, at: now });
    },
  };
}
