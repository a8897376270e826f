import { describe, expect, it } from 'vitest';
import { createGroupCommit, type Settled } from './group-commit.ts';

/** A writer that records each batch it gets and can be held open, to let calls pile up. */
function recordingWriter(options: { failWhen?: (items: number[]) => boolean; error?: unknown } = {}) {
  const batches: number[][] = [];
  let release: (() => void) | null = null;
  let hold: Promise<void> | null = null;
  return {
    batches,
    holdNext() {
      hold = new Promise((resolve) => (release = resolve));
    },
    release() {
      release?.();
      hold = null;
    },
    async write(items: number[]): Promise<Array<Settled<string>>> {
      batches.push(items);
      if (hold) await hold;
      if (options.failWhen?.(items)) throw options.error ?? new Error(`batch ${items.join(',')} failed`);
      return items.map((i) => (i < 0 ? { ok: false, error: new Error(`refused ${i}`) } : { ok: true, value: `done ${i}` }));
    },
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('group commit', () => {
  it('calls of one turn of the event loop go in one batch; each gets its own outcome', async () => {
    const w = recordingWriter();
    const gc = createGroupCommit({ maxBatch: 10, write: (items: number[]) => w.write(items) });
    const results = await Promise.allSettled([1, 2, -3, 4].map((i) => gc.submit(i)));
    expect(w.batches).toEqual([[1, 2, -3, 4]]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(['done 1', 'done 2', 'refused -3', 'done 4']);
  });

  it('calls arriving while a batch is written wait and go together next, at most maxBatch at a time', async () => {
    const w = recordingWriter();
    const gc = createGroupCommit({ maxBatch: 3, write: (items: number[]) => w.write(items) });
    w.holdNext();
    const first = gc.submit(1);
    await tick();
    expect(w.batches).toEqual([[1]]);
    const later = [2, 3, 4, 5, 6, 7, 8].map((i) => gc.submit(i));
    await tick();
    expect(w.batches).toHaveLength(1); // one batch at a time
    w.release();
    await Promise.all([first, ...later]);
    expect(w.batches).toEqual([[1], [2, 3, 4], [5, 6, 7], [8]]);
  });

  it('a batch that fails as a whole is written again one item at a time, so only the culprit fails', async () => {
    const w = recordingWriter({ failWhen: (items) => items.includes(13) });
    const gc = createGroupCommit({ maxBatch: 10, write: (items: number[]) => w.write(items) });
    const results = await Promise.allSettled([11, 12, 13, 14].map((i) => gc.submit(i)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(w.batches).toEqual([[11, 12, 13, 14], [11], [12], [13], [14]]);
  });

  it('an error that would fail any batch (failsAll) is not retried item by item', async () => {
    const down = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const w = recordingWriter({ failWhen: () => true, error: down });
    const gc = createGroupCommit({ maxBatch: 10, write: (items: number[]) => w.write(items), failsAll: (e) => e === down });
    const results = await Promise.allSettled([1, 2, 3].map((i) => gc.submit(i)));
    expect(results.every((r) => r.status === 'rejected' && r.reason === down)).toBe(true);
    expect(w.batches).toEqual([[1, 2, 3]]);
  });
});
