import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import type { Config } from '../../src/config.ts';
import type { Database } from '../../src/db/database.ts';
import type { Container } from '../../src/container.ts';
import { SCOPES, type Actor } from '../../src/modules/accounts/scopes.ts';
import { generateHeads } from '../../src/modules/panel/panel-seed.ts';
import { seededRng } from '../../src/lib/random.ts';
import { drive } from '../lib/drive.ts';
import type { AnswersWorkload, AppControlName, AppControls } from '../lib/protocol.ts';

/**
 * The app child's control operations (protocol.ts AppControls), run inside the app process
 * through its container: set-up that has no public route (accounts, keys, grants, a bigger
 * panel), the answer path (no public answer endpoint yet), the plain-insert baseline, and the
 * server side of the 10,000-waits scenario.
 */
export const BASELINE_APPLICATION = 'headcount-bench-baseline';
const SCRATCH_TABLE = 'bench_scratch';
/** What every bench question asks: single choice, 2 options (12 credits an answer at tier 1). */
const DRAFT = { type: 'single_choice', text: 'Which name is best for a savings app?', options: [{ label: 'Penny' }, { label: 'Pocket' }] } as const;
const INSERT_BATCH = 500;

const now = () => performance.timeOrigin + performance.now();

type Handlers = { [K in AppControlName]: (args: AppControls[K]['args']) => Promise<AppControls[K]['result']> };

export function createAppControl(deps: { config: Config; database: Database; container: Container; counters: { queries(): number; otherQueries(): number } }) {
  const { config, database, container, counters } = deps;
  const { db } = database;
  let accountsMade = 0;

  async function makeAccount(credits: number): Promise<{ actor: Actor; secret: string }> {
    accountsMade += 1;
    const account = await container.accounts.createAccount({ name: `Bench account ${accountsMade}` });
    const { key, secret } = await container.accounts.createKey({ accountId: account.id, scopes: [...SCOPES], name: `bench key ${accountsMade}` });
    if (credits > 0) await container.credits.grant({ accountId: account.id, amount: credits, reason: 'Credits for the benchmark' });
    return { actor: { accountId: account.id, keyId: key.id, scopes: SCOPES, dailyCapCredits: null }, secret };
  }

  async function askQuestion(actor: Actor, n: number): Promise<string> {
    const result = await container.asks.ask(actor, { draft: { ...DRAFT, options: [...DRAFT.options], n } } as never, randomUUID());
    if (result.body.question.status !== 'live') throw new Error(`bench question is ${result.body.question.status}, not live`);
    return result.body.question.id;
  }

  /** Head ids of the panel, topped up to `size` with generated heads (the seed itself runs once per database). */
  async function panelOf(size: number): Promise<string[]> {
    const have = Number((await db.selectFrom('heads').select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow()).count);
    if (have < size) {
      const heads = generateHeads(size - have, container.clock.now(), seededRng(424242 + have));
      await db.transaction().execute(async (tx) => {
        for (let i = 0; i < heads.length; i += INSERT_BATCH) {
          const batch = heads.slice(i, i + INSERT_BATCH).map((h) => ({ ...h, tags: sql<string[]>`${sql.val(h.tags)}::text[]` }));
          await tx.insertInto('heads').values(batch as never).execute();
        }
      });
    }
    return (await db.selectFrom('heads').select('id').orderBy('id').execute()).map((h) => h.id);
  }

  // --- the plain-insert baseline -------------------------------------------------------------
  let baseline: pg.Pool | null = null;
  async function baselinePool(): Promise<pg.Pool> {
    if (baseline) return baseline;
    // Its own pool, sized like the app's, so the app's statement counter does not see it.
    const pool = new pg.Pool({ ...database.connection, max: config.databasePoolSize, application_name: BASELINE_APPLICATION });
    pool.on('error', () => {});
    await pool.query(`CREATE TABLE IF NOT EXISTS ${SCRATCH_TABLE} (id bigserial PRIMARY KEY, payload text NOT NULL, at timestamptz NOT NULL DEFAULT now())`);
    baseline = pool;
    // Warm: every connection opened, plans cached, once.
    await drive({ seconds: 1, concurrency: config.databasePoolSize * 2 }, () => insertOne(pool), counters);
    return pool;
  }
  async function insertOne(pool: pg.Pool): Promise<'ok'> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`INSERT INTO ${SCRATCH_TABLE} (payload) VALUES ($1)`, ['a row of the plain-insert baseline']);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
    return 'ok';
  }

  // --- answers ----------------------------------------------------------------------------------
  interface AnswersState {
    spec: AnswersWorkload;
    heads: string[];
    actors: Actor[];
    /** Answers each question takes from this workload: n, or the panel size when smaller. */
    perQuestion: number;
    generations: Map<number, Promise<string[]>>;
    next: number;
  }
  const workloads = new Map<string, AnswersState>();

  function generation(w: AnswersState, g: number): Promise<string[]> {
    let ids = w.generations.get(g);
    if (!ids) {
      ids = Promise.all(Array.from({ length: w.spec.questions }, (_, i) => askQuestion(w.actors[i % w.actors.length], w.spec.n)));
      w.generations.set(g, ids);
    }
    return ids;
  }

  /**
   * Answer k goes to question k mod Q of its generation, from a head no other answer of that
   * question used; heads are spread so each answers few questions (as on a real panel, where the
   * eligibility check looks at a head's earlier answers). A generation's questions are replaced
   * by new ones once each has taken `perQuestion` answers.
   */
  async function answerOnce(w: AnswersState): Promise<string> {
    const k = w.next++;
    const { questions } = w.spec;
    const perGeneration = questions * w.perQuestion;
    const g = Math.floor(k / perGeneration);
    const within = k % perGeneration;
    const qi = within % questions;
    const slot = Math.floor(within / questions);
    const ids = await generation(w, g);
    const head = w.heads[(slot + (g * questions + qi) * 7919) % w.heads.length];
    const outcome = await container.answers.record(ids[qi], { headId: head, source: 'panel', tier: 1 }, { option: k % 2 });
    return outcome.accepted ? 'ok' : (outcome.reason ?? outcome.state);
  }

  // --- waits --------------------------------------------------------------------------------------
  let waited: { questionIds: string[]; lastHead: string } | null = null;

  const handlers: Handlers = {
    async 'accounts.create'({ accounts, credits }) {
      const made = [];
      for (let i = 0; i < accounts; i++) made.push(await makeAccount(credits));
      return { secrets: made.map((m) => m.secret), accountIds: made.map((m) => m.actor.accountId) };
    },

    async 'insert.run'(settings) {
      const pool = await baselinePool();
      return drive(settings, () => insertOne(pool), counters);
    },

    async 'answers.prepare'(spec) {
      const t = performance.now();
      const heads = await panelOf(spec.heads);
      const actors = [];
      for (let i = 0; i < spec.accounts; i++) actors.push((await makeAccount(1_000_000_000)).actor);
      const w: AnswersState = { spec, heads, actors, perQuestion: Math.min(spec.n, heads.length), generations: new Map(), next: 0 };
      await generation(w, 0);
      workloads.set(spec.id, w);
      return { heads: heads.length, questions: spec.questions, accounts: spec.accounts, ms: Math.round(performance.now() - t) };
    },

    async 'answers.run'({ id, ...settings }) {
      const w = workloads.get(id);
      if (!w) throw new Error(`no answers workload "${id}" (call answers.prepare first)`);
      return drive(settings, () => answerOnce(w), counters);
    },

    async 'waits.prepare'({ questions, n }) {
      const t = performance.now();
      const { actor, secret } = await makeAccount(1_000_000_000);
      const heads = await panelOf(n);
      const questionIds: string[] = [];
      for (let i = 0; i < questions; i++) questionIds.push(await askQuestion(actor, n));
      // All but the last answer now, so one answer per question completes it later.
      let next = 0;
      const jobs = questionIds.flatMap((id) => heads.slice(0, n - 1).map((head) => ({ id, head })));
      await Promise.all(
        Array.from({ length: config.databasePoolSize }, async () => {
          while (next < jobs.length) {
            const job = jobs[next++];
            const outcome = await container.answers.record(job.id, { headId: job.head, source: 'panel', tier: 1 }, { option: next % 2 });
            if (!outcome.accepted) throw new Error(`pre-answer refused: ${outcome.reason ?? outcome.state}`);
          }
        }),
      );
      waited = { questionIds, lastHead: heads[n - 1] };
      return { secret, questionIds, ms: Math.round(performance.now() - t) };
    },

    async 'waits.count'() {
      return { waiting: container.waits.waiting() };
    },

    async 'waits.complete'() {
      if (!waited) throw new Error('call waits.prepare first');
      const { questionIds, lastHead } = waited;
      const committedAt: Record<string, number> = {};
      const failures: string[] = [];
      const startedAt = now();
      await Promise.all(
        questionIds.map(async (id) => {
          try {
            const outcome = await container.answers.record(id, { headId: lastHead, source: 'panel', tier: 1 }, { option: 0 });
            committedAt[id] = now();
            if (!outcome.completed) failures.push(`${id}: the last answer did not complete it (${outcome.reason ?? outcome.state})`);
          } catch (error) {
            failures.push(`${id}: ${(error as Error).message}`);
          }
        }),
      );
      return { startedAt, finishedAt: now(), committedAt, failures };
    },

    async memory({ gc }) {
      const collect = (globalThis as { gc?: () => void }).gc;
      if (gc && collect) {
        collect();
        collect();
      }
      const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
      return { rss, heapUsed, heapTotal, external, arrayBuffers };
    },
  };

  return {
    run(op: string, args: unknown): Promise<unknown> {
      const handler = (handlers as Record<string, (args: unknown) => Promise<unknown>>)[op];
      if (!handler) return Promise.reject(new Error(`unknown control operation "${op}"`));
      return handler(args);
    },
    async close(): Promise<void> {
      await baseline?.end();
    },
  };
}
