import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import type { Config } from '../../src/config.ts';
import type { Database } from '../../src/db/database.ts';
import type { Container } from '../../src/container.ts';
import { SCOPES, type Actor } from '../../src/lib/actor.ts';
import { generateHeads } from '../../src/modules/panel/panel-seed.ts';
import { seededRng } from '../../src/lib/random.ts';
import { newId } from '../../src/lib/ids.ts';
import { randomBase62 } from '../../src/lib/base62.ts';
import { answerSentiment } from '../../src/modules/text/sentiment.ts';
import { drive } from '../lib/drive.ts';
import { plainTransaction } from '../lib/plain-transaction.ts';
import { ASK_DRAFT } from '../scenarios/asks.ts';
import { readAskRows, writeAskRows } from './ask-rows.ts';
import type { EventName } from '../../src/modules/events/webhooks.schemas.ts';
import type { AnswersWorkload, AppControlName, AppControls, DispatcherCounters, ResultsSetup, ResultsWorkload } from '../lib/protocol.ts';

/**
 * The app child's control operations (protocol.ts AppControls), run inside the app process
 * through its container: set-up that has no public route (accounts, keys, grants, a bigger
 * panel, a question with 5,000 answers written in bulk, live questions for link answers), the
 * panel answer path (no HTTP route), the plain-insert baseline, the result cache's counters, the
 * server side of the 10,000-waits scenario, and the webhooks scenario's accounts with endpoints
 * and the dispatcher's counters.
 */
export const BASELINE_APPLICATION = 'headcount-bench-baseline';
const SCRATCH_TABLE = 'bench_scratch';
/** What every bench question asks: single choice, 2 options (12 credits an answer at tier 1). */
const DRAFT = { type: 'single_choice', text: 'Which name is best for a savings app?', options: [{ label: 'Penny' }, { label: 'Pocket' }] } as const;
const INSERT_BATCH = 500;
/** The results workload's question: four options and a reason, so breakdowns, sentiment and the `q` filter have something to work on. */
const RESULT_DRAFT = {
  type: 'single_choice',
  text: 'Which name would you pick for a savings app?',
  options: [{ label: 'Penny' }, { label: 'Pocket' }, { label: 'Jar' }, { label: 'Stash' }],
  reason: 'optional',
} as const;
/** Reasons people give, per option (what a real result's words look like: short, some positive, some not). */
const REASONS = [
  ['Short and easy to remember', 'Sounds friendly and a bit playful', 'Makes me think of saving every penny', 'A bit old fashioned but clear', 'I like how it sounds'],
  ['Feels like it fits in my pocket, simple', 'Modern and easy to say', 'Clear what it does', 'Not very exciting but fine', 'Great name, I would trust it'],
  ['Reminds me of a savings jar at home', 'Cute but maybe too childish', 'Simple and honest', 'I love the image of filling a jar', 'Too plain for a bank app'],
  ['Sounds cool and a bit secret', 'Young and fun', 'Feels like hiding money, not saving it', 'Catchy, easy to find in the app store', 'Not sure, it sounds a bit dodgy'],
];
const ENDINGS = ['', '.', ' really', ', honestly', ' to me', '!', ' I think', ' for sure'];

const now = () => performance.timeOrigin + performance.now();
const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

type Handlers = { [K in AppControlName]: (args: AppControls[K]['args']) => Promise<AppControls[K]['result']> };

export function createAppControl(deps: {
  config: Config;
  database: Database;
  container: Container;
  counters: { queries(): number; otherQueries(): number };
  /** What servers/app.ts counts around the webhook dispatcher. */
  dispatcher(): DispatcherCounters;
}) {
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
  function insertOne(pool: pg.Pool): Promise<'ok'> {
    return plainTransaction(pool, 'bench_plain_insert', `INSERT INTO ${SCRATCH_TABLE} (payload) VALUES ($1)`, ['a row of the plain-insert baseline']);
  }

  // --- the ask's own rows (servers/ask-rows.ts) ---------------------------------------------------
  let askRows: { accounts: number; copy(): Promise<'ok'> } | null = null;
  async function askRowsOf(accounts: number) {
    if (askRows?.accounts === accounts) return askRows;
    const pool = await baselinePool();
    const made: Array<{ actor: Actor; accountId: string; lotId: string }> = [];
    for (let i = 0; i < accounts; i++) {
      const { actor } = await makeAccount(1_000_000_000);
      const lot = await db.selectFrom('credit_lots').select('id').where('account_id', '=', actor.accountId).executeTakeFirstOrThrow();
      made.push({ actor, accountId: actor.accountId, lotId: lot.id });
    }
    // The template: a real ask of the asks rows' draft, through the ask service the route calls.
    const asked = await container.asks.ask(made[0].actor, { draft: { ...ASK_DRAFT, options: ASK_DRAFT.options.map((o) => ({ ...o })) } } as never, randomUUID());
    const template = await readAskRows(pool, asked.body.question.id);
    let next = 0;
    askRows = { accounts, copy: () => writeAskRows(pool, template, made[next++ % made.length]) };
    // Warm, as the plain-insert baseline is: every connection opened, plans cached.
    await drive({ seconds: 1, concurrency: config.databasePoolSize * 2 }, askRows.copy, counters);
    return askRows;
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

  // --- results ------------------------------------------------------------------------------------
  interface ResultsState {
    setup: ResultsSetup;
    /** Heads in id order with their profiles; the next one not yet used on this question. */
    heads: HeadProfile[];
    nextHead: number;
  }
  type HeadProfile = { id: string; tier: number; country: string; age_band: string; gender: string; tags: string[] };
  const resultWorkloads = new Map<string, Promise<ResultsState>>();

  /** What head i answers: an option leaning by country and age (so segments differ) and, mostly, a reason. */
  function answerOf(head: HeadProfile, i: number): { option: number; reason?: string } {
    const rng = seededRng(9_000_001 + i);
    const lean = (head.country.charCodeAt(0) + head.country.charCodeAt(1) + head.age_band.charCodeAt(0)) % 4;
    const weights = [40, 28, 20, 12].map((_, k) => [40, 28, 20, 12][(k + lean) % 4]);
    let r = rng() * 100;
    let option = 0;
    while (option < 3 && (r -= weights[option]) >= 0) option++;
    if (rng() >= 0.7) return { option };
    const reasons = REASONS[option];
    return { option, reason: reasons[Math.floor(rng() * reasons.length)] + ENDINGS[Math.floor(rng() * ENDINGS.length)] };
  }

  /**
   * `count` answers written in bulk, in one transaction with the question row locked, as the
   * recorder would leave them one by one: a row each (profile from the panel, option label, reason,
   * sentiment, the answer's credits, an attestation reference), then the question's answered count,
   * tally, credits spent and updated_at, and the account's hold (holds.spend) moved once for all.
   */
  async function bulkAnswers(questionId: string, heads: HeadProfile[], count: number): Promise<number> {
    let withReason = 0;
    await db.transaction().execute(async (tx) => {
      const row = await tx.selectFrom('questions').selectAll().where('id', '=', questionId).forUpdate().executeTakeFirstOrThrow();
      if (row.status !== 'live' || row.answered + count > row.n) throw new Error(`question ${questionId} cannot take ${count} answers (${row.status}, ${row.answered}/${row.n})`);
      const draft = row.draft as unknown as { language: string; options: Array<{ label: string }> };
      const tally: Record<string, number> = { ...row.tally };
      const end = container.clock.now().getTime();
      for (let i = 0; i < count; i += INSERT_BATCH) {
        const batch = [];
        for (let k = i; k < Math.min(count, i + INSERT_BATCH); k++) {
          const head = heads[k];
          const answer = answerOf(head, k);
          const label = draft.options[answer.option].label;
          tally[label] = (tally[label] ?? 0) + 1;
          if (answer.reason) withReason += 1;
          batch.push({
            id: newId('answer'),
            question_id: questionId,
            head_id: head.id,
            source: 'panel',
            tier: head.tier,
            country: head.country,
            age_band: head.age_band,
            gender: head.gender,
            tags: sql`${sql.val(head.tags)}::text[]` as never,
            answer: JSON.stringify(answer),
            option_label: label,
            text: null,
            reason: answer.reason ?? null,
            credits: row.credits_per_answer,
            attestation_ref: `att_${randomBase62(16)}`,
            dwell_ms: 3000 + ((k * 7919) % 20_000),
            sentiment: answerSentiment(draft.language, null, answer.reason),
            // Spread over the last two hours, in seq order.
            answered_at: new Date(end - (count - k) * Math.floor(7_200_000 / count)),
          });
        }
        await tx.insertInto('answers').values(batch).execute();
      }
      const at = container.clock.now();
      await tx
        .updateTable('questions')
        .set({ answered: row.answered + count, credits_spent: row.credits_spent + count * row.credits_per_answer, tally: JSON.stringify(tally), updated_at: at })
        .where('id', '=', questionId)
        .execute();
      await container.holds.spend(new Map([[row.account_id, count * row.credits_per_answer]]), at, tx);
    });
    container.notifier.publish(questionId);
    return withReason;
  }

  async function prepareResults(spec: ResultsWorkload): Promise<ResultsState> {
    const t = performance.now();
    if (spec.answers > spec.n) throw new Error('results workload: more answers than n');
    await panelOf(spec.heads);
    const heads = (await db.selectFrom('heads').select(['id', 'tier', 'country', 'age_band', 'gender', 'tags']).orderBy('id').execute()) as HeadProfile[];
    if (heads.length < spec.answers + 1) throw new Error(`results workload: ${heads.length} heads for ${spec.answers} answers`);
    const { actor, secret } = await makeAccount(1_000_000_000);
    const asked = await container.asks.ask(actor, { draft: { ...RESULT_DRAFT, options: [...RESULT_DRAFT.options], n: spec.n } } as never, randomUUID());
    const questionId = asked.body.question.id;
    if (asked.body.question.status !== 'live') throw new Error(`results question is ${asked.body.question.status}, not live`);
    // A complete question: all but the last in bulk, the last through the recorder, which closes it.
    const bulk = spec.answers === spec.n ? spec.answers - 1 : spec.answers;
    let withReason = await bulkAnswers(questionId, heads, bulk);
    const state: ResultsState = { setup: null as never, heads, nextHead: bulk };
    if (bulk < spec.answers) {
      const outcome = await recordNext(state, questionId);
      if (!outcome.completed) throw new Error(`the last answer did not complete the results question (${outcome.reason ?? outcome.state})`);
      if (answerOf(heads[bulk], bulk).reason) withReason += 1;
      // Its final summary now (the insights-final job would make it within a minute, during a measured run).
      while ((await container.insights.finalPass(50)) === 50);
    }
    const question = await db.selectFrom('questions').select(['status', 'answered']).where('id', '=', questionId).executeTakeFirstOrThrow();
    const top = await db
      .selectFrom('answers')
      .select(['country', sql<number>`count(*)::int`.as('answers'), sql<number>`(count(*) FILTER (WHERE tier = 1))::int`.as('tier1')])
      .where('question_id', '=', questionId)
      .groupBy('country')
      .orderBy('answers', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    state.setup = {
      secret,
      questionId,
      status: question.status,
      answers: question.answered,
      withReason,
      topCountry: top.country ?? '',
      topCountryAnswers: top.answers,
      topCountryTier1: top.tier1,
      ms: Math.round(performance.now() - t),
    };
    return state;
  }

  /** The next head's answer through the recorder (the one way answers enter the app). */
  function recordNext(state: ResultsState, questionId: string) {
    const k = state.nextHead++;
    const head = state.heads[k % state.heads.length];
    return container.answers.record(questionId, { headId: head.id, source: 'panel', tier: 1 }, answerOf(head, k), { withQuestion: true });
  }

  // --- webhooks -----------------------------------------------------------------------------------
  /** Each webhook account's owner: endpoints are managed by a signed-in owner or admin, never a key. */
  const owners = new Map<string, Actor>();

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

    async 'askRows.run'({ accounts, ...settings }) {
      return drive(settings, (await askRowsOf(accounts)).copy, counters);
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

    async 'results.prepare'(spec) {
      let state = resultWorkloads.get(spec.id);
      if (!state) {
        state = prepareResults(spec);
        resultWorkloads.set(spec.id, state);
        state.catch(() => resultWorkloads.delete(spec.id));
      }
      return (await state).setup;
    },

    async 'results.answer'({ id }) {
      const state = await resultWorkloads.get(id);
      if (!state) throw new Error(`no results workload "${id}" (call results.prepare first)`);
      const outcome = await recordNext(state, state.setup.questionId);
      return { accepted: outcome.accepted, reason: outcome.reason ?? null, answered: outcome.question?.answered ?? -1 };
    },

    async 'results.cache'() {
      return container.results.cacheStats();
    },

    async 'links.prepare'({ questions, n }) {
      const t = performance.now();
      const { actor } = await makeAccount(1_000_000_000);
      const questionIds: string[] = [];
      for (let i = 0; i < questions; i++) {
        const asked = await container.asks.ask(actor, { draft: { ...DRAFT, options: [...DRAFT.options], n, reason: 'optional' } } as never, randomUUID());
        if (asked.body.question.status !== 'live') throw new Error(`link question is ${asked.body.question.status}, not live`);
        questionIds.push(asked.body.question.id);
      }
      const rows = await db.selectFrom('questions').select(['id', 'link_code']).where('id', 'in', questionIds).execute();
      const codeOf = new Map(rows.map((r) => [r.id, r.link_code]));
      return { codes: questionIds.map((id) => codeOf.get(id)!), questionIds, ms: Math.round(performance.now() - t) };
    },

    async 'links.count'({ questionIds }) {
      const row = await db
        .selectFrom('answers')
        .select(sql<number>`count(*)::int`.as('answers'))
        .where('question_id', 'in', questionIds)
        .where('source', '=', 'link')
        .executeTakeFirstOrThrow();
      return { answers: row.answers };
    },

    async 'webhooks.account'({ credits, urls, events }) {
      const t = performance.now();
      const { actor, secret } = await makeAccount(credits);
      // The portal's session actor of the account's owner (no session row is needed: the service
      // checks the role, and created_by is only recorded).
      const owner: Actor = { ...actor, keyId: null, session: { id: `bench-session-${actor.accountId}`, personId: `bench-owner-${actor.accountId}`, role: 'owner' } };
      owners.set(actor.accountId, owner);
      const endpoints = [];
      for (const url of urls) {
        const made = await container.webhooks.create(owner, { url, events: events as EventName[], description: 'bench receiver' });
        endpoints.push({ id: made.id, url: made.url, secret: made.secret });
      }
      return { accountId: actor.accountId, apiSecret: secret, endpoints, ms: Math.round(performance.now() - t) };
    },

    async 'webhooks.counters'() {
      return { queries: counters.queries(), otherQueries: counters.otherQueries(), ...deps.dispatcher(), cpuMicros: cpuMicros() };
    },

    async 'webhooks.deliveries'({ endpointIds }) {
      const rows = endpointIds.length
        ? await db
            .selectFrom('webhook_deliveries')
            .select(['endpoint_id', 'status', sql<number>`count(*)::int`.as('count'), sql<number>`sum(attempts)::int`.as('attempts')])
            .where('endpoint_id', 'in', endpointIds)
            .groupBy(['endpoint_id', 'status'])
            .execute()
        : [];
      const byEndpoint: Record<string, { succeeded: number; pending: number; failed: number; attempts: number }> = {};
      for (const id of endpointIds) byEndpoint[id] = { succeeded: 0, pending: 0, failed: 0, attempts: 0 };
      for (const row of rows) {
        const entry = byEndpoint[row.endpoint_id];
        entry[row.status as 'succeeded' | 'pending' | 'failed'] = row.count;
        entry.attempts += row.attempts;
      }
      return byEndpoint;
    },

    async 'webhooks.remove'({ accountId, endpointIds }) {
      const owner = owners.get(accountId);
      if (!owner) throw new Error(`no webhook account ${accountId} (call webhooks.account first)`);
      for (const id of endpointIds) await container.webhooks.remove(owner, id);
      return { removed: endpointIds.length };
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
