import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLocalNotifier } from '../../lib/notifier.ts';
import type { Actor } from '../../lib/actor.ts';
import { createWaitService } from './wait.service.ts';

/**
 * The wait service (and its parking, wait-parking.ts) with fakes, where timing decides (docs/lifecycle.md "Waiting for the answer"):
 * a close is never left to the 5-second re-check because a read or a call was in flight when it
 * was announced; the re-check is one statement for every waiting question; waiters that reach
 * one minAnswers together close the question once.
 */
interface State {
  status: string;
  answered: number;
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const actor: Actor = { accountId: 'acc_1', keyId: 'key_1', scopes: ['questions:read'], dailyCapCredits: null };

function setup(states: Record<string, State>, options: { holdReads?: boolean; holdFirstReads?: boolean } = {}) {
  const notifier = createLocalNotifier();
  const reads: Array<{ id: string; answer: (state?: State) => void }> = [];
  const firstReads: Array<{ id: string; answer: (state?: State) => void }> = [];
  const batches: string[][] = [];
  const closeEarly = vi.fn(async (_accountId: string, id: string) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    states[id] = { ...states[id], status: 'complete' };
    return true;
  });
  const held = (list: typeof reads, id: string) => {
    const { promise, resolve } = deferred<State | undefined>();
    list.push({ id, answer: (state = states[id]) => resolve(state && { ...state }) });
    return promise;
  };
  const service = createWaitService({
    questions: {
      progress: async (id) => (options.holdReads ? held(reads, id) : states[id] && { ...states[id] }),
      progressOf: async (accountId, id) => (accountId !== 'acc_1' ? undefined : options.holdFirstReads ? held(firstReads, id) : states[id] && { ...states[id] }),
      progressMany: async (ids) => {
        batches.push([...ids]);
        return ids.filter((id) => states[id]).map((id) => ({ id, ...states[id] }));
      },
    },
    notifier,
    lifecycle: { closeEarly },
    results: { forAccount: async (_accountId, id) => ({ questionId: id, status: states[id].status }) as never },
  });
  return { service, notifier, reads, firstReads, batches, closeEarly };
}

/** Lets promise callbacks (and the fakes' reads) run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await settle();
  expect(check()).toBe(true);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('wait service', () => {
  it('a close announced while a read is in flight is read again after it, not left to the re-check', async () => {
    const states: Record<string, State> = { q_1: { status: 'live', answered: 8 } };
    const { service, notifier, reads } = setup(states, { holdReads: true });
    const waiting = service.wait(actor, 'q_1', 20);
    await until(() => service.waiting() === 1);

    states.q_1 = { status: 'live', answered: 9 };
    notifier.publish('q_1');
    expect(reads).toHaveLength(1);
    const stale = { ...states.q_1 };
    // The completing answer commits while that read is still running: one more read is due, not one per change.
    states.q_1 = { status: 'complete', answered: 10 };
    notifier.publish('q_1');
    notifier.publish('q_1');
    expect(reads).toHaveLength(1);
    reads[0].answer(stale);
    await until(() => reads.length === 2);
    expect(service.waiting()).toBe(1);
    reads[1].answer();
    await expect(waiting).resolves.toMatchObject({ done: true, result: { status: 'complete' } });
    expect(reads).toHaveLength(2);
  });

  it('a close announced between a call\'s first read and its parking is read when it parks', async () => {
    const states: Record<string, State> = { q_1: { status: 'live', answered: 9 } };
    const { service, notifier, firstReads } = setup(states, { holdFirstReads: true });
    const waiting = service.wait(actor, 'q_1', 20);
    await until(() => firstReads.length === 1);
    const stale = { ...states.q_1 };
    states.q_1 = { status: 'complete', answered: 10 };
    notifier.publish('q_1');
    firstReads[0].answer(stale);
    await expect(waiting).resolves.toMatchObject({ done: true, result: { status: 'complete' } });
    expect(service.waiting()).toBe(0);
  });

  it('another account\'s question is not found, and nothing stays watched', async () => {
    const states: Record<string, State> = { q_1: { status: 'live', answered: 1 } };
    const { service } = setup(states);
    await expect(service.wait({ ...actor, accountId: 'acc_2' }, 'q_1', 20)).rejects.toMatchObject({ code: 'not_found' });
    expect(service.waiting()).toBe(0);
  });

  it('the safety re-check reads every waiting question in one statement, every 5 s, and only while some wait', async () => {
    vi.useFakeTimers();
    const states: Record<string, State> = { q_1: { status: 'live', answered: 1 }, q_2: { status: 'live', answered: 1 }, q_3: { status: 'live', answered: 1 } };
    const { service, batches } = setup(states);
    const waits = ['q_1', 'q_1', 'q_2', 'q_3'].map((id) => service.wait(actor, id, 25));
    await vi.advanceTimersByTimeAsync(10);
    expect(service.waiting()).toBe(4);
    expect(batches).toEqual([]);

    // A change nobody announced (the admin CLI on the embedded database).
    states.q_2 = { status: 'cancelled', answered: 1 };
    await vi.advanceTimersByTimeAsync(5_000);
    expect(batches).toHaveLength(1);
    expect([...batches[0]].sort()).toEqual(['q_1', 'q_2', 'q_3']);
    await expect(waits[2]).resolves.toMatchObject({ done: true, result: { status: 'cancelled' } });
    expect(service.waiting()).toBe(3);

    await vi.advanceTimersByTimeAsync(5_000);
    expect(batches).toHaveLength(2);
    expect([...batches[1]].sort()).toEqual(['q_1', 'q_3']);

    // The rest time out (done false); then no re-check runs.
    await vi.advanceTimersByTimeAsync(15_000);
    for (const wait of [waits[0], waits[1], waits[3]]) await expect(wait).resolves.toMatchObject({ done: false });
    const after = batches.length;
    await vi.advanceTimersByTimeAsync(20_000);
    expect(batches).toHaveLength(after);
  });

  it('waiters that reach one minAnswers together close the question once', async () => {
    const states: Record<string, State> = { q_1: { status: 'live', answered: 2 } };
    const { service, notifier, closeEarly } = setup(states);
    const waits = Array.from({ length: 50 }, () => service.wait(actor, 'q_1', 20, 3));
    await until(() => service.waiting() === 50);
    states.q_1 = { status: 'live', answered: 3 };
    notifier.publish('q_1');
    const results = await Promise.all(waits);
    expect(results.every((r) => r.done && r.result.status === 'complete')).toBe(true);
    expect(closeEarly).toHaveBeenCalledTimes(1);
    expect(closeEarly).toHaveBeenCalledWith('acc_1', 'q_1', 3);
  });

  it('release answers every parked call with done false, and later calls do not park', async () => {
    const states: Record<string, State> = { q_1: { status: 'live', answered: 2 } };
    const { service } = setup(states);
    const waits = Array.from({ length: 3 }, () => service.wait(actor, 'q_1', 20));
    await until(() => service.waiting() === 3);
    expect(service.release()).toBe(3);
    for (const wait of waits) await expect(wait).resolves.toMatchObject({ done: false, result: { status: 'live' } });
    await expect(service.wait(actor, 'q_1', 20)).resolves.toMatchObject({ done: false });
    expect(service.waiting()).toBe(0);
  });
});
