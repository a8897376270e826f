import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { createPostgresNotifier, EVERY_KEY, EVERY_QUESTION, type Notifier } from '../../src/lib/notifier.ts';

/**
 * "Question changed" across processes on a PostgreSQL server (src/lib/notifier.ts): a publish
 * reaches this process's listeners at once and exactly once (the echo of its own NOTIFY is
 * dropped), and another process's listeners through NOTIFY.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('the PostgreSQL notifier', () => {
  const log = { error: () => {} };
  let t: TestApp;
  const databases: Database[] = [];
  const notifiers: Notifier[] = [];

  async function process_(): Promise<Notifier> {
    const database = await openDatabase(t.config);
    databases.push(database);
    const notifier = createPostgresNotifier(database.connection, database.pool, log);
    await notifier.start();
    notifiers.push(notifier);
    return notifier;
  }

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    for (const n of notifiers) await n.stop();
    for (const d of databases) await d.close();
    await t?.close();
  });

  it('delivers a publish once to its own process, synchronously, and once to another process', async () => {
    const a = await process_();
    const b = await process_();
    const heardByA: string[] = [];
    const heardByB: string[] = [];
    a.subscribe((id) => heardByA.push(id));
    b.subscribe((id) => heardByB.push(id));

    a.publish('q_one');
    expect(heardByA).toEqual(['q_one']); // before any round trip
    const deadline = Date.now() + 5_000;
    while (heardByB.length === 0 && Date.now() < deadline) await sleep(20);
    await sleep(300); // time for A's own echo to arrive, and be dropped
    expect(heardByA).toEqual(['q_one']);
    expect(heardByB).toEqual(['q_one']);

    b.publish('q_two');
    while (heardByA.length < 2 && Date.now() < deadline + 5_000) await sleep(20);
    await sleep(300);
    expect(heardByA).toEqual(['q_one', 'q_two']);
    expect(heardByB).toEqual(['q_one', 'q_two']);
  });

  it('publishes of one turn of the event loop reach another process each once, in one statement', async () => {
    const a = await process_();
    const b = await process_();
    const heardByB: string[] = [];
    b.subscribe((id) => heardByB.push(id));
    const pool = databases.at(-2)!.pool;
    let statements = 0;
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      statements += 1;
      return query(...args);
    };
    for (const id of ['q_a', 'q_b', 'q_a', 'q_c']) a.publish(id);
    const deadline = Date.now() + 5_000;
    while (heardByB.length < 3 && Date.now() < deadline) await sleep(20);
    await sleep(200);
    expect(heardByB.sort()).toEqual(['q_a', 'q_b', 'q_c']);
    expect(statements).toBe(1);
  });

  it('a payload without a process token (an older process) counts as another process’s', async () => {
    const a = await process_();
    const heard: string[] = [];
    a.subscribe((id) => heard.push(id));
    await databases[0].pool.query("SELECT pg_notify('hc_questions', 'q_legacy')");
    const deadline = Date.now() + 5_000;
    while (heard.length === 0 && Date.now() < deadline) await sleep(20);
    expect(heard).toEqual(['q_legacy']);
  });

  it('after its LISTEN connection is lost and comes back, every question counts as changed (NOTIFYs of the gap were not heard)', async () => {
    const listeners = async () =>
      new Set((await databases[0].pool.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN hc_questions%'")).rows.map((r) => r.pid));
    const before = await listeners();
    const a = await process_();
    const ours = [...(await listeners())].filter((pid) => !before.has(pid));
    expect(ours).toHaveLength(1);
    const heard: string[] = [];
    const keysHeard: string[] = [];
    a.subscribe((id) => heard.push(id));
    a.subscribeKeys((id) => keysHeard.push(id));
    expect(a.hearsEveryChange()).toBe(true);
    await databases[0].pool.query('SELECT pg_terminate_backend($1)', [ours[0]]);
    const deadline = Date.now() + 8_000;
    // Deaf from the loss until LISTEN is back: caches that rely on it ask the database meanwhile.
    while (a.hearsEveryChange() && Date.now() < deadline) await sleep(5);
    expect(a.hearsEveryChange()).toBe(false);
    while (!heard.includes(EVERY_QUESTION) && Date.now() < deadline) await sleep(50);
    expect(heard).toContain(EVERY_QUESTION);
    expect(keysHeard).toContain(EVERY_KEY);
    expect(a.hearsEveryChange()).toBe(true);
    // And it listens again.
    const b = await process_();
    b.publish('q_after');
    while (!heard.includes('q_after') && Date.now() < deadline + 5_000) await sleep(20);
    expect(heard).toContain('q_after');
  }, 20_000);
});
