/**
 * At most `slots` pieces of work at once; the rest wait in order. Renders (heatmaps, chart PNGs,
 * PDFs) each take a libuv worker thread or the event loop for tens of milliseconds, and several
 * are reachable without a key (public heatmaps, export links): they queue rather than take every
 * thread and core. A finished piece hands its slot straight to the next in the queue.
 */
export function concurrencyLimit(slots: number) {
  let running = 0;
  const queue: Array<() => void> = [];
  return async function limited<T>(work: () => Promise<T>): Promise<T> {
    if (running < slots) running += 1;
    else await new Promise<void>((resolve) => queue.push(resolve));
    try {
      return await work();
    } finally {
      const next = queue.shift();
      if (next) next();
      else running -= 1;
    }
  };
}
