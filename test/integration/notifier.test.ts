import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { answer, ask, choiceDraft, grant, seedHeads } from '../helpers/questions.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { createPostgresNotifier, EVERY_KEY, EVERY_QUESTION, type Notifier } from '../../src/lib/notifier.ts';

/**
 * "Question changed" across processes on a PostgreSQL server (src/lib/notifier.ts): a publish
 * reaches this process's listeners at once and exactly once; a committed change reaches the other
 * processes through migration 0022's triggers (the echo of a process's own change is dropped);
 * a new question is announced only from its first change (migration 0023).
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

  /** Counts the statements sent through a pool from now on. */
  function counted(database: Database): () => number {
    let statements = 0;
    const pool = database.pool as unknown as { query: (...args: unknown[]) => unknown };
    const query = pool.query.bind(pool);
    pool.query = (...args: unknown[]) => {
      statements += 1;
      return query(...args);
    };
    return () => statements;
  }

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    for (const n of notifiers) await n.stop();
    for (const d of databases) await d.close();
    await t?.close();
  });

  /** A question row to change (the triggers fire per row). */
  async function questionId(): Promise<string> {
    const key = await t.makeKey();
    await grant(t, key.accountId, 1_000);
    return (await ask(t, key, choiceDraft())).id;
  }
  const touch = (database: Database, id: string) => database.db.updateTable('questions').set({ updated_at: new Date() }).where('id', '=', id).execute();
  async function until(condition: () => boolean, ms = 5_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!condition() && Date.now() < deadline) await sleep(20);
  }

  it("a publish reaches its own process's listeners at once and sends nothing; the committed change reaches another process once, announced by the database", async () => {
    const id = await questionId();
    const a = await process_();
    const b = await process_();
    const heardByA: string[] = [];
    const heardByB: string[] = [];
    a.subscribe((heard) => heardByA.push(heard));
    b.subscribe((heard) => heardByB.push(heard));
    const statements = counted(databases.at(-2)!);

    a.publish(id);
    expect(heardByA).toEqual([id]); // before any round trip
    expect(statements()).toBe(0); // the app's own NOTIFY is gone: the trigger announces the commit
    await sleep(300);
    expect(heardByB).toEqual([]); // a publish is no change: nothing committed, nothing announced

    await touch(databases.at(-2)!, id); // A commits a change to the question
    await until(() => heardByB.length > 0);
    await sleep(300); // time for A's own echo to arrive, and be dropped
    expect(heardByB).toEqual([id]);
    expect(heardByA).toEqual([id]);

    await touch(databases.at(-1)!, id); // and B one
    await until(() => heardByA.length > 1);
    await sleep(300);
    expect(heardByA).toEqual([id, id]);
    expect(heardByB).toEqual([id]);
  });

  it('a new question is not announced, its ask included (nobody can hold it yet: migration 0023); its first change is', async () => {
    const a = await process_();
    const heard: string[] = [];
    a.subscribe((changed) => heard.push(changed));
    const id = await questionId(); // asked through another process's pool: its INSERT, reservation and ledger rows
    await sleep(500);
    expect(heard).toEqual([]);
    await touch(t.database, id);
    await until(() => heard.length > 0);
    expect(heard).toEqual([id]);
  });

  it('a transaction that changes one question many times announces it once, at commit; a rolled-back one announces nothing', async () => {
    const [first, second] = [await questionId(), await questionId()];
    await process_();
    const b = await process_();
    const heard: string[] = [];
    b.subscribe((id) => heard.push(id));
    const writer = databases.at(-2)!;
    await writer.db.transaction().execute(async (tx) => {
      for (let i = 0; i < 3; i += 1) await tx.updateTable('questions').set({ updated_at: new Date() }).where('id', 'in', [first, second]).execute();
      await sleep(300);
      expect(heard).toEqual([]); // not before the commit
    });
    await until(() => heard.length >= 2);
    await sleep(300);
    expect(heard.sort()).toEqual([first, second].sort());

    heard.length = 0;
    await writer.db.transaction().execute(async (tx) => {
      await tx.updateTable('questions').set({ updated_at: new Date() }).where('id', '=', first).execute();
      throw new Error('rolled back');
    }).catch(() => {});
    await sleep(500);
    expect(heard).toEqual([]);
  });

  it("each table of a question's parts announces its question, whoever writes it: an answer changed or removed, a flag, a summary; a new answer through its question's row", async () => {
    const key = await t.makeKey();
    await grant(t, key.accountId, 1_000);
    const id = (await ask(t, key, choiceDraft())).id;
    const [head] = await seedHeads(t, 1);
    const a = await process_();
    const heard: string[] = [];
    a.subscribe((changed) => heard.push(changed));
    const writer = t.database.pool; // another process's connection (psql would do the same)
    const announced = async (what: string, write: () => Promise<unknown>) => {
      heard.length = 0;
      await write();
      await until(() => heard.length > 0);
      expect(heard, what).toEqual([id]);
    };
    await announced('a new answer', () => answer(t, id, head!));
    const answerId = (await writer.query<{ id: string; attestation_ref: string }>('SELECT id, attestation_ref FROM answers WHERE question_id = $1', [id])).rows[0]!;
    await announced('an answer pinned', () => writer.query('UPDATE answers SET pinned = true WHERE id = $1', [answerId.id]));
    await announced('a flag', () =>
      writer.query("INSERT INTO answer_flags (id, account_id, question_id, answer_id, attestation_ref, reason, refund_credits, created_at) VALUES ('fl_test', $1, $2, $3, $4, 'low_effort', 0, now())", [key.accountId, id, answerId.id, answerId.attestation_ref]),
    );
    await announced('a flag deleted', () => writer.query("DELETE FROM answer_flags WHERE id = 'fl_test'"));
    await announced('a summary', () => writer.query("INSERT INTO insights (question_id, kind, payload, generated_at) VALUES ($1, 'interim', '{}', now()) ON CONFLICT (question_id) DO UPDATE SET generated_at = now()", [id]));
    await announced('an answer removed', () => writer.query('DELETE FROM answers WHERE id = $1', [answerId.id]));
  });

  it('a NOTIFY from another program (psql; a process before migration 0022, which sent "id|token") is heard as that question', async () => {
    const a = await process_();
    const heard: string[] = [];
    a.subscribe((id) => heard.push(id));
    await databases[0].pool.query("SELECT pg_notify('hc_questions', 'q_by_hand')");
    await databases[0].pool.query("SELECT pg_notify('hc_questions', 'q_older|Zm9vYmFyYmF6')");
    await until(() => heard.length >= 2);
    expect(heard).toEqual(['q_by_hand', 'q_older']);
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
    await process_();
    const id = await questionId();
    heard.length = 0;
    await touch(databases.at(-1)!, id);
    while (!heard.includes(id) && Date.now() < deadline + 5_000) await sleep(20);
    expect(heard).toContain(id);
  }, 20_000);
});

/**
 * Migration 0022's triggers stay silent where nobody listens: the embedded database's one session
 * sets headcount.announce_changes to off (db/embedded.ts; a NOTIFY there made answers 4× slower),
 * and every server session, where it is unset, announces.
 */
describe('where the database announces changes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });
  const setting = async (client: { query: pg.Pool['query'] }) => (await client.query<{ value: string | null }>("SELECT current_setting('headcount.announce_changes', true) AS value")).rows[0]!.value;

  it.runIf(!process.env.TEST_DATABASE_URL)('embedded: off for the service and for every other program on its socket', async () => {
    expect(await setting(t.database.pool)).toBe('off');
    const other = new pg.Client({ ...(t.database.connection as pg.ClientConfig), application_name: 'psql' });
    await other.connect();
    try {
      expect(await setting(other)).toBe('off');
    } finally {
      await other.end();
    }
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)('server: unset, so every writer is announced; a session that turns it off is not', async () => {
    expect(['', null]).toContain(await setting(t.database.pool));
    const key = await t.makeKey();
    await grant(t, key.accountId, 1_000);
    const id = (await ask(t, key, choiceDraft())).id;
    const database = await openDatabase(t.config);
    const listener = createPostgresNotifier(database.connection, database.pool, { error: () => {} });
    await listener.start();
    const heard: string[] = [];
    listener.subscribe((changed) => heard.push(changed));
    const writer = new pg.Client(t.database.connection as pg.ClientConfig);
    await writer.connect();
    try {
      await writer.query("SET headcount.announce_changes = 'off'");
      await writer.query('UPDATE questions SET updated_at = now() WHERE id = $1', [id]);
      await sleep(500);
      expect(heard).toEqual([]);
      await writer.query('RESET headcount.announce_changes');
      await writer.query('UPDATE questions SET updated_at = now() WHERE id = $1', [id]);
      const deadline = Date.now() + 5_000;
      while (heard.length === 0 && Date.now() < deadline) await sleep(20);
      expect(heard).toEqual([id]);
    } finally {
      await writer.end();
      await listener.stop();
      await database.close();
    }
  });
});
