/**
 * Something slow to load (a library start-up should not pay for: issue 15), loaded by its first
 * caller and kept for every later one. A load that fails is forgotten, so the next caller tries
 * again instead of getting the same error for the life of the process.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = null;
      throw error;
    }));
}
