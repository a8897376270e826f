import type pg from 'pg';

type Socket = { _write: (...args: unknown[]) => unknown; _writev?: (...args: unknown[]) => unknown };

/**
 * Counts the writes on the socket of a pool of ONE connection (so every statement goes through
 * it): where round trips show, below every layer of ours (docs/performance.md "Round trips").
 */
export async function countSocketWrites(pool: pg.Pool): Promise<{ readonly writes: number; during(work: () => Promise<unknown>): Promise<number> }> {
  const client = await pool.connect();
  const socket = (client as unknown as { connection: { stream: Socket } }).connection.stream;
  client.release();
  const counter = {
    writes: 0,
    async during(work: () => Promise<unknown>): Promise<number> {
      const before = counter.writes;
      await work();
      return counter.writes - before;
    },
  };
  for (const method of ['_write', '_writev'] as const) {
    const original = socket[method];
    if (!original) continue;
    socket[method] = function (this: unknown, ...args: unknown[]) {
      counter.writes += 1;
      return original.apply(this, args);
    };
  }
  return counter;
}
