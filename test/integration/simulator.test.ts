import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.ts';
import type { Clock } from '../../src/lib/clock.ts';
import { randomBase62 } from '../../src/lib/base62.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { seedSimulatedPanel } from '../../src/modules/panel/panel-seed.ts';
import { createSimulator, type Simulator } from '../../src/modules/panel/simulator.ts';
import { createPoolRepository } from '../../src/modules/panel/pool.repository.ts';
import { createHeadsRepository } from '../../src/modules/panel/heads.repository.ts';
import { createAnswerRecordingService } from '../../src/modules/answers/answer-recording.service.ts';
import { createAnswersRepository } from '../../src/modules/answers/answers.repository.ts';
import { readAnswer, type AnswerInput } from '../../src/modules/draft/answer-format.ts';
import { createQuestionsRepository } from '../../src/modules/questions/questions.repository.ts';
import { createLifecycleService } from '../../src/modules/questions/lifecycle.service.ts';
import { normalizeDraft, type NormalizedDraft } from '../../src/modules/draft/draft-defaults.ts';
import type { QuestionDraft } from '../../src/modules/draft/draft.schemas.ts';
import { createCreditHolds } from '../../src/modules/credits/credits.holds.ts';
import { createCreditsRepository } from '../../src/modules/credits/credits.repository.ts';
import { createCreditAlerts } from '../../src/modules/credits/credits.alerts.ts';
import { createBalanceView } from '../../src/modules/credits/credits-balance-view.ts';
import { createAccountsRepository } from '../../src/modules/accounts/accounts.repository.ts';
import { findTag } from '../../src/modules/draft/tags.data.ts';
import type { AgeBand, Gender } from '../../src/modules/draft/question-types.ts';

/**
 * The development simulator (ARCHITECTURE §4 "Panel"): simulated heads answer live questions
 * through the real answer-recording service, at the configured pace, honouring targeting,
 * privacy, follow-ups and variants, reproducibly under a seed.
 *
 * Questions are inserted as rows (the container has no ask service to go through yet), free of
 * credits so no money moves; the recorder is the real one with a real lifecycle.
 */
const PANEL = 300;
const SEED = 4242;

function recorderFor(db: Db, clock: Clock) {
  const questions = createQuestionsRepository(db);
  const credits = createCreditsRepository(db);
  // (Questions here are free: no reservation, so no credits event; the balance view is wired all the same.)
  const balanceView = createBalanceView({ repo: credits, accounts: createAccountsRepository(db), privateToday: async () => ({ freeQuestionToday: false }) });
  const holds = createCreditHolds(credits, createCreditAlerts({ repo: credits, balanceView }));
  const lifecycle = createLifecycleService({ db, clock, questions, holds, effects: { changed() {}, async wentLive() {} }, publicBaseUrl: 'http://localhost:8080' });
  return createAnswerRecordingService({ db, clock, repo: createAnswersRepository(db), heads: createHeadsRepository(db), questions, holds, lifecycle, changed() {} });
}

interface QuestionSpec {
  id?: string;
  draft: QuestionDraft;
  status?: 'live' | 'draft' | 'scheduled';
  private?: boolean;
  parentId?: string;
  variantGroup?: string;
}

/** Question ids seed the simulator's per-question streams: fixed ids keep every test reproducible. */
let questionNumber = 0;

async function insertQuestion(db: Db, clock: Clock, accountId: string, spec: QuestionSpec): Promise<string> {
  const draft: NormalizedDraft = normalizeDraft(spec.draft);
  const now = clock.now();
  const id = spec.id ?? `q_simtest${String(++questionNumber).padStart(12, '0')}`;
  const status = spec.status ?? 'live';
  await db
    .insertInto('questions')
    .values({
      id,
      account_id: accountId,
      source: 'api',
      status,
      type: draft.type,
      draft: JSON.stringify(draft),
      n: draft.n,
      tier: draft.tier,
      credits_per_answer: 0,
      credits_reserved: 0,
      eta_minutes: 2,
      live_at: status === 'live' ? now : null,
      closes_at: status === 'live' ? new Date(now.getTime() + 7 * 86_400_000) : null,
      scheduled_for: status === 'scheduled' ? new Date(now.getTime() + 86_400_000) : null,
      created_at: now,
      updated_at: now,
      link_code: randomBase62(10),
      private: spec.private ?? false,
      parent_id: spec.parentId ?? null,
      variant_group: spec.variantGroup ?? null,
    } as never)
    .execute();
  return id;
}

async function statusOf(db: Db, id: string): Promise<{ status: string; answered: number; n: number }> {
  return db.selectFrom('questions').select(['status', 'answered', 'n']).where('id', '=', id).executeTakeFirstOrThrow();
}

/** Ticks `stepMs` of fake time until `done` or `maxMs`; returns the fake milliseconds it took. */
async function runUntil(t: { clock: { advance(ms: number): void } }, sim: Simulator, done: () => Promise<boolean>, stepMs: number, maxMs: number): Promise<number> {
  for (let elapsed = stepMs; elapsed <= maxMs; elapsed += stepMs) {
    t.clock.advance(stepMs);
    await sim.tick(stepMs);
    if (await done()) return elapsed;
  }
  throw new Error(`not done after ${maxMs} ms`);
}

const opts = (...labels: string[]) => labels.map((label) => ({ label }));

describe('simulator', () => {
  let t: TestApp;
  let accountId: string;
  const errors: unknown[] = [];
  const log = { info() {}, error: (obj: object) => void errors.push(obj) };
  let recorder: ReturnType<typeof recorderFor>;
  const simulator = (answersPerMinute = 25, seed = SEED) => createSimulator({ heads: createHeadsRepository(t.db), clock: t.clock, recorder, answersPerMinute, seed, log });

  beforeAll(async () => {
    t = await createTestApp();
    expect(await seedSimulatedPanel(t.db, { size: PANEL, clock: t.clock, seed: 7 })).toBe(PANEL);
    accountId = (await t.container.accounts.createAccount({ name: 'Simulator test' })).id;
    recorder = recorderFor(t.db, t.clock);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    // Each test starts with nothing live; nothing a test left behind is answered by the next.
    await t.db.updateTable('questions').set({ status: 'cancelled' }).where('status', 'in', ['live', 'draft', 'scheduled']).execute();
    expect(errors).toEqual([]);
  });

  it('at 25 a minute, completes an n=50 question in about two minutes of 1 s ticks', async () => {
    const id = await insertQuestion(t.db, t.clock, accountId, {
      draft: { type: 'single_choice', text: 'Which jar would you buy?', options: opts('Blue', 'Green', 'Clear'), n: 50, neither: true, reason: 'optional' },
    });
    const sim = simulator();
    const perTick: number[] = [];
    let took = 0;
    while ((await statusOf(t.db, id)).status !== 'complete' && took < 240_000) {
      t.clock.advance(1000);
      took += 1000;
      perTick.push(await sim.tick(1000));
    }
    const q = await statusOf(t.db, id);
    expect(q).toEqual({ status: 'complete', answered: 50, n: 50 });
    expect(took).toBeGreaterThanOrEqual(90_000);
    expect(took).toBeLessThanOrEqual(180_000);
    // Not robotic: many seconds bring none, some bring more than one.
    expect(perTick.filter((n) => n === 0).length).toBeGreaterThan(20);
    expect(perTick.some((n) => n >= 2)).toBe(true);
    console.info(`simulator pace: n=50 at 25/min completed after ${took / 1000} s of fake time`);

    const rows = await t.db.selectFrom('answers').select(['source', 'dwell_ms', 'option_label', 'head_id']).where('question_id', '=', id).execute();
    expect(rows).toHaveLength(50);
    expect(new Set(rows.map((r) => r.head_id)).size).toBe(50);
    for (const r of rows) {
      expect(r.source).toBe('simulator');
      expect(r.dwell_ms).toBeGreaterThanOrEqual(3000);
      expect(r.dwell_ms).toBeLessThanOrEqual(40_000);
    }
    // The heads who answered were seen now.
    const seen = await t.db.selectFrom('heads').select('last_seen_at').where('id', 'in', rows.map((r) => r.head_id!)).execute();
    const since = t.clock.now().getTime() - took;
    for (const s of seen) expect(s.last_seen_at!.getTime()).toBeGreaterThan(since);
  }, 120_000);

  it('answers every type with answers that fit it, in the question language', async () => {
    const img = (name: string) => `https://img.example.com/${name}.png`;
    const drafts: QuestionDraft[] = [
      { type: 'single_choice', text: 'Pick a name', options: opts('Penny', 'Pocket', 'Purse'), neither: true, reason: 'required', language: 'es', n: 12 },
      { type: 'multi_choice', text: 'Which would you use?', options: opts('Offline', 'Voice', 'Clipper', 'Sync'), neither: true, reason: 'optional', language: 'fr', n: 12 },
      { type: 'ab_image', text: 'Which logo?', options: [{ label: 'Blue', imageUrl: img('a') }, { label: 'Green', imageUrl: img('b') }], neither: true, n: 12 },
      { type: 'pairwise', text: 'Which line?', options: opts('Fast', 'Fresh', 'Local', 'Cheap'), reason: 'optional', language: 'pt-BR', n: 12 },
      { type: 'scale_1_5', text: 'How clear?', reason: 'required', language: 'de', n: 12 },
      { type: 'ranking', text: 'Order these', options: opts('Price', 'Coverage', 'Data', 'Contract'), reason: 'required', language: 'id', n: 12 },
      { type: 'yes_mostly_no', text: 'Would you pay?', reason: 'required', language: 'hi', n: 12 },
      { type: 'free_text', text: 'What would you want to know?', language: 'tl', n: 12 },
      { type: 'click_test', text: 'Where would you tap?', stimulus: { imageUrl: img('checkout') }, clickTest: { maxTaps: 3 }, reason: 'optional', n: 12 },
      { type: 'reaction', text: 'How did it feel?', options: opts('Curious', 'Indifferent', 'Put off'), stimulus: { text: 'Banking that talks like a person.', exposureMs: 5000 }, n: 12 },
    ];
    const ids: string[] = [];
    for (const draft of drafts) ids.push(await insertQuestion(t.db, t.clock, accountId, { draft }));
    const sim = simulator(60);
    await runUntil(t, sim, async () => (await t.db.selectFrom('questions').select('id').where('id', 'in', ids).where('status', '=', 'complete').execute()).length === ids.length, 2000, 120_000);

    for (const [i, id] of ids.entries()) {
      const draft = normalizeDraft(drafts[i]);
      const rows = await t.db.selectFrom('answers').select(['answer', 'reason', 'text', 'option_label']).where('question_id', '=', id).execute();
      expect(rows, draft.type).toHaveLength(12);
      for (const r of rows) {
        expect(readAnswer(draft, r.answer as AnswerInput), draft.type).not.toBeInstanceOf(Array);
        if (draft.reason === 'required') expect(r.reason, draft.type).toBeTruthy();
        if (draft.reason === 'off') expect(r.reason, draft.type).toBeNull();
      }
    }
    const spanish = await t.db.selectFrom('answers').select('reason').where('question_id', '=', ids[0]).execute();
    expect(spanish.every((r) => /porque|Ninguna|ninguna/.test(r.reason!))).toBe(true);
    const tagalog = await t.db.selectFrom('answers').select('text').where('question_id', '=', ids[7]).execute();
    expect(tagalog.every((r) => /[a-z]/.test(r.text!) && !/ the /.test(r.text!))).toBe(true);
  }, 120_000);

  it('honours targeting and tier', async () => {
    const pool = createPoolRepository(t.db);
    const byCountry = { countries: ['GB', 'US', 'IN', 'DE'], tags: [] as string[] };
    const byProfile = { countries: [] as string[], tags: ['int_sport', 'int_music', 'int_travel', 'pet_dog', 'pet_cat'], ageBands: ['25-34', '35-44', '45-54', '55-64', '65+'] as AgeBand[], genders: ['woman'] as Gender[] };
    const poolA = (await pool.count({ ...byCountry, tier: 2 }, t.clock.now())).size;
    const poolB = (await pool.count({ ...byProfile, tier: 1 }, t.clock.now())).size;
    // Meaningful: both audiences are a real subset of the panel, and big enough to fill.
    expect(poolA).toBeGreaterThan(12);
    expect(poolA).toBeLessThan(PANEL / 3);
    console.info(`simulator targeting: pools of ${poolA} and ${poolB} of ${PANEL} heads`);
    expect(poolB).toBeGreaterThanOrEqual(5);
    expect(poolB).toBeLessThan(PANEL / 5);
    const a = await insertQuestion(t.db, t.clock, accountId, { draft: { type: 'yes_mostly_no', text: 'Tier 2 in four countries', tier: 2, targeting: byCountry, n: 12 } });
    const b = await insertQuestion(t.db, t.clock, accountId, { draft: { type: 'scale_1_5', text: 'Sporty women', targeting: byProfile, n: poolB } });
    const sim = simulator();
    await runUntil(t, sim, async () => (await statusOf(t.db, a)).status === 'complete' && (await statusOf(t.db, b)).status === 'complete', 5000, 600_000);

    const answersOf = (id: string) =>
      t.db
        .selectFrom('answers as a')
        .innerJoin('heads as h', 'h.id', 'a.head_id')
        .select(['a.country', 'a.tier', 'a.age_band', 'a.gender', 'a.tags', 'h.country as head_country', 'h.tier as head_tier', 'h.tags as head_tags', 'h.age_band as head_age', 'h.gender as head_gender', 'h.simulated'])
        .where('a.question_id', '=', id)
        .execute();
    const rowsA = await answersOf(a);
    expect(rowsA).toHaveLength(12);
    for (const r of rowsA) {
      expect(byCountry.countries).toContain(r.country);
      expect(r.tier).toBeGreaterThanOrEqual(2);
      expect({ country: r.country, tier: r.tier, simulated: r.simulated }).toEqual({ country: r.head_country.trim(), tier: r.head_tier, simulated: true });
    }
    const rowsB = await answersOf(b);
    expect(rowsB).toHaveLength(poolB);
    for (const r of rowsB) {
      expect(byProfile.ageBands).toContain(r.age_band);
      expect(r.gender).toBe('woman');
      expect(r.tags).toEqual(r.head_tags);
      // OR inside a group, AND across groups.
      const groups = new Set(byProfile.tags.map((tag) => findTag(tag)!.group.id));
      for (const group of groups) expect(r.tags.some((tag) => byProfile.tags.includes(tag) && findTag(tag)!.group.id === group), group).toBe(true);
    }
  }, 120_000);

  it('leaves private, scheduled and draft questions alone', async () => {
    const privateId = await insertQuestion(t.db, t.clock, accountId, { draft: { type: 'free_text', text: 'Only through my link', n: 10 }, private: true });
    const scheduled = await insertQuestion(t.db, t.clock, accountId, { draft: { type: 'free_text', text: 'Later', n: 10 }, status: 'scheduled' });
    const draft = await insertQuestion(t.db, t.clock, accountId, { draft: { type: 'free_text', text: 'Not yet', n: 10 }, status: 'draft' });
    const sim = simulator(600);
    let recorded = 0;
    for (let i = 0; i < 60; i++) {
      t.clock.advance(1000);
      recorded += await sim.tick(1000);
    }
    expect(recorded).toBe(0);
    const n = await t.db.selectFrom('answers').select(sql<number>`count(*)::int`.as('n')).where('question_id', 'in', [privateId, scheduled, draft]).executeTakeFirstOrThrow();
    expect(n.n).toBe(0);
  }, 60_000);

  it('a follow-up goes only to heads who answered its parent', async () => {
    const parent = await insertQuestion(t.db, t.clock, accountId, { draft: { type: 'single_choice', text: 'Parent', options: opts('A', 'B'), n: 25 } });
    const child = await insertQuestion(t.db, t.clock, accountId, { draft: { type: 'free_text', text: 'Why?', n: 10 }, status: 'draft', parentId: parent });
    const sim = simulator(40);
    await runUntil(t, sim, async () => (await statusOf(t.db, child)).status === 'complete', 2000, 300_000);
    expect((await statusOf(t.db, parent)).status).toBe('complete');
    const parentHeads = new Set((await t.db.selectFrom('answers').select('head_id').where('question_id', '=', parent).execute()).map((r) => r.head_id));
    const childHeads = (await t.db.selectFrom('answers').select('head_id').where('question_id', '=', child).execute()).map((r) => r.head_id);
    expect(childHeads).toHaveLength(10);
    for (const h of childHeads) expect(parentHeads.has(h)).toBe(true);
  }, 120_000);

  it('variants of one question go to different heads', async () => {
    const original = await insertQuestion(t.db, t.clock, accountId, { draft: { type: 'ab_image', text: 'Which?', options: [{ label: 'A', imageUrl: 'https://img.example.com/a.png' }, { label: 'B', imageUrl: 'https://img.example.com/b.png' }], n: 60 } });
    const v1 = await insertQuestion(t.db, t.clock, accountId, { draft: { type: 'ab_image', text: 'Which, said differently?', options: [{ label: 'A', imageUrl: 'https://img.example.com/a.png' }, { label: 'B', imageUrl: 'https://img.example.com/b.png' }], n: 60 }, variantGroup: original });
    const v2 = await insertQuestion(t.db, t.clock, accountId, { draft: { type: 'ab_image', text: 'Which, a third way?', options: [{ label: 'A', imageUrl: 'https://img.example.com/a.png' }, { label: 'B', imageUrl: 'https://img.example.com/b.png' }], n: 60 }, variantGroup: original });
    const sim = simulator(60);
    const ids = [original, v1, v2];
    await runUntil(t, sim, async () => (await t.db.selectFrom('questions').select('id').where('id', 'in', ids).where('status', '=', 'complete').execute()).length === 3, 2000, 300_000);
    const rows = await t.db.selectFrom('answers').select(['head_id', 'question_id']).where('question_id', 'in', ids).execute();
    expect(rows).toHaveLength(180);
    expect(new Set(rows.map((r) => r.head_id)).size).toBe(180);
  }, 120_000);

  it('start() ticks on real time and stop() waits for the running tick', async () => {
    const id = await insertQuestion(t.db, t.clock, accountId, { draft: { type: 'scale_1_5', text: 'Quick', n: 40 } });
    const sim = simulator(3000); // 50 a second
    sim.start(25);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await sim.stop();
    const after = (await statusOf(t.db, id)).answered;
    expect(after).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await statusOf(t.db, id)).answered).toBe(after);
  }, 30_000);

  /** The container's own ask and answer services, when it has them (they are newer than this file). */
  type Wired = {
    asks?: { ask(actor: { accountId: string; keyId: string | null; scopes: readonly string[]; dailyCapCredits: number | null }, body: { draft: QuestionDraft }, idempotencyKey: string): Promise<{ body: { question: { id: string } } }> };
    answers?: { record: Parameters<typeof createSimulator>[0]['recorder']['record'] };
  };
  const wired = () => t.container as unknown as Wired;

  it('through the real ask: money moves per answer and the hold is spent exactly', async (ctx) => {
    const { asks, answers } = wired();
    if (!asks || !answers) return ctx.skip();
    const paying = (await t.container.accounts.createAccount({ name: 'Paying requester' })).id;
    await t.container.credits.grant({ accountId: paying, amount: 100_000, reason: 'Simulator test' });
    const actor = { accountId: paying, keyId: null, scopes: [] as string[], dailyCapCredits: null };
    const asked = await asks.ask(actor, { draft: { type: 'single_choice', text: 'Which colour for the van?', options: opts('Red', 'White'), n: 20 } }, 'simulator-money-1');
    const id = asked.body.question.id;
    const sim = createSimulator({ heads: createHeadsRepository(t.db), clock: t.clock, recorder: answers, answersPerMinute: 25, seed: SEED, log });
    await runUntil(t, sim, async () => (await statusOf(t.db, id)).status === 'complete', 1000, 240_000);
    const q = await t.db.selectFrom('questions').select(['answered', 'credits_per_answer', 'credits_reserved', 'credits_spent', 'credits_refunded']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(q.answered).toBe(20);
    expect(q.credits_per_answer).toBeGreaterThan(0);
    expect(q.credits_spent).toBe(20 * q.credits_per_answer);
    expect(q.credits_spent + q.credits_refunded).toBe(q.credits_reserved);
    const balance = await t.db.selectFrom('balances').select(['available', 'reserved']).where('account_id', '=', paying).executeTakeFirstOrThrow();
    expect(balance).toEqual({ available: 100_000 - q.credits_spent, reserved: 0 });
  }, 60_000);

  it('logs a failing question and carries on with the others', async () => {
    // maxTaps 0 slipped past validation: the simulator taps once, the recorder refuses the answer and throws.
    const broken = await insertQuestion(t.db, t.clock, accountId, { draft: { type: 'click_test', text: 'Tap', stimulus: { imageUrl: 'https://img.example.com/x.png' }, n: 10 } });
    const bad = { ...normalizeDraft({ type: 'click_test', text: 'Tap', stimulus: { imageUrl: 'https://img.example.com/x.png' }, n: 10 }), clickTest: { maxTaps: 0 } };
    await t.db.updateTable('questions').set({ draft: JSON.stringify(bad) }).where('id', '=', broken).execute();
    const fine = await insertQuestion(t.db, t.clock, accountId, { draft: { type: 'yes_mostly_no', text: 'Fine', n: 10 } });
    const sim = simulator(120);
    for (let i = 0; i < 10; i++) {
      t.clock.advance(1000);
      await sim.tick(1000);
    }
    expect((await statusOf(t.db, fine)).answered).toBeGreaterThan(0);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((e) => (e as { questionId?: string }).questionId === broken)).toBe(true);
    errors.length = 0;
  }, 30_000);
});

describe('simulator determinism', () => {
  /** One fresh database: the same panel seed, the same questions, `seconds` of 1 s ticks. */
  async function run(seed: number, seconds: number) {
    const t = await createTestApp();
    try {
      await seedSimulatedPanel(t.db, { size: PANEL, clock: t.clock, seed: 7 });
      const accountId = (await t.container.accounts.createAccount({ name: 'Determinism' })).id;
      const recorder = recorderFor(t.db, t.clock);
      await insertQuestion(t.db, t.clock, accountId, { id: 'q_determinismAAAAAAAAAAA', draft: { type: 'ranking', text: 'Order', options: opts('Price', 'Speed', 'Support'), reason: 'optional', n: 30 } });
      await insertQuestion(t.db, t.clock, accountId, { id: 'q_determinismBBBBBBBBBBB', draft: { type: 'free_text', text: 'Say something', language: 'es', targeting: { countries: ['US', 'GB', 'IN'], tags: [] }, n: 30 } });
      const sim = createSimulator({ heads: createHeadsRepository(t.db), clock: t.clock, recorder, answersPerMinute: 25, seed });
      for (let i = 0; i < seconds; i++) {
        t.clock.advance(1000);
        await sim.tick(1000);
      }
      const rows = await t.db
        .selectFrom('answers as a')
        .innerJoin('heads as h', 'h.id', 'a.head_id')
        .select(['a.question_id', 'a.answer', 'a.option_label', 'a.text', 'a.reason', 'a.dwell_ms', 'a.answered_at', 'a.country', 'a.tier', 'a.age_band', 'a.gender', 'a.tags', 'h.created_at'])
        .orderBy('a.seq')
        .execute();
      return rows;
    } finally {
      await t.close();
    }
  }

  it('the same seed gives the same answers from the same heads on two fresh databases', async () => {
    const first = await run(99, 60);
    const second = await run(99, 60);
    expect(first.length).toBeGreaterThan(30);
    expect(second).toEqual(first);
    const other = await run(100, 60);
    expect(other).not.toEqual(first);
  }, 180_000);
});
