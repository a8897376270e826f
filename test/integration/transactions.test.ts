import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { isServerRun } from '../helpers/test-database.ts';
import { fundedKey } from '../helpers/questions.ts';
import { inTransaction } from '../../src/db/transaction.ts';
import { TransactionConflictError } from '../../src/lib/database-errors.ts';
import { registerErrorHandling } from '../../src/http/error-handler.ts';

/**
 * db/transaction.ts: a deadlock or serialization failure PostgreSQL raises is retried inside the
 * service (issue 8, point 1), and one that outlasts the retries is a 503 with Retry-After, never
 * a 500.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { DATABASE_POOL_SIZE: '4' } });
});
afterAll(async () => {
  await t?.close();
});

describe.skipIf(!isServerRun())('on PostgreSQL', () => {
  it('two transactions that lock two rows in opposite orders both commit: the deadlock victim is retried', async () => {
    const [a, b] = [(await fundedKey(t, 100)).accountId, (await fundedKey(t, 100)).accountId];
    let attempts = 0;
    let arrived = 0;
    let release: () => void = () => {};
    const bothHoldTheirFirstRow = new Promise<void>((resolve) => (release = resolve));
    const crosswise = (first: string, second: string) =>
      inTransaction(t.db, async (tx) => {
        attempts += 1;
        await tx.updateTable('balances').set({ updated_at: new Date() }).where('account_id', '=', first).execute();
        if (++arrived === 2) release();
        await bothHoldTheirFirstRow;
        await tx.updateTable('balances').set({ updated_at: new Date() }).where('account_id', '=', second).execute();
        return first;
      });
    expect(await Promise.all([crosswise(a, b), crosswise(b, a)])).toEqual([a, b]);
    expect(attempts).toBe(3);
  });
});

describe('when the conflicts do not stop', () => {
  it('inTransaction gives up after its attempts with TransactionConflictError, and the API answers 503 service_unavailable with Retry-After', async () => {
    let attempts = 0;
    const failing = inTransaction(t.db, async () => {
      attempts += 1;
      throw Object.assign(new Error('could not serialize access due to concurrent update'), { code: '40001' });
    });
    await expect(failing).rejects.toBeInstanceOf(TransactionConflictError);
    expect(attempts).toBe(5);

    const app = Fastify();
    registerErrorHandling(app);
    app.get('/busy', async () => failing);
    const response = await app.inject({ method: 'GET', url: '/busy' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('1');
    expect(response.json().error).toMatchObject({ code: 'service_unavailable' });
  });

  it('other errors are not retried', async () => {
    let attempts = 0;
    await expect(inTransaction(t.db, async () => {
      attempts += 1;
      throw new Error('a bug');
    })).rejects.toThrow('a bug');
    expect(attempts).toBe(1);
  });
});
