import { afterEach, describe, expect, it, vi } from 'vitest';
import { warmUpSoonAfterReady } from './warm-up.ts';

const logger = () => ({ error: vi.fn() }) as unknown as Parameters<typeof warmUpSoonAfterReady>[1] & { error: ReturnType<typeof vi.fn> };

describe('warm-up after ready', () => {
  afterEach(() => vi.useRealTimers());

  it('makes the sentiment model and the OAuth server half a second after ready, not before', async () => {
    vi.useFakeTimers();
    const oauthProvider = vi.fn(async () => ({}));
    warmUpSoonAfterReady({ oauthProvider }, logger());
    await vi.advanceTimersByTimeAsync(400);
    expect(oauthProvider).not.toHaveBeenCalled();
    // The sentiment model loads first, in the same turn (it is synchronous): were it to throw,
    // the OAuth server would not be made.
    await vi.advanceTimersByTimeAsync(100);
    expect(oauthProvider).toHaveBeenCalledTimes(1);
  });

  it('logs an OAuth server that could not be made, and lets the next request try', async () => {
    vi.useFakeTimers();
    const log = logger();
    warmUpSoonAfterReady({ oauthProvider: async () => Promise.reject(new Error('no keys')) }, log);
    await vi.advanceTimersByTimeAsync(500);
    expect(log.error).toHaveBeenCalledWith(expect.objectContaining({ err: expect.objectContaining({ message: 'no keys' }) }), expect.stringContaining('next OAuth request tries again'));
  });
});
