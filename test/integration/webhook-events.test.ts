import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { accountEvents, answerAll, ask, askRaw, balanceOf, choiceDraft, DAY, errorOf, expectReconciled, fundedKey, getQuestion, grant, NO_RATE_LIMITS, seedHeads, type Head, type Json } from '../helpers/questions.ts';
import { newEmail, signIn, type SignedInPerson } from '../helpers/people.ts';
import { SCOPES } from '../../src/lib/actor.ts';
import { creditsJobs } from '../../src/modules/credits/credits.jobs.ts';

/**
 * The ten webhook events (docs/webhooks.md "Events"), read from the outbox as written: each by the
 * transaction that makes it true, once, with `data` holding the resource exactly as the API
 * returns it at that moment (compared with the API's own response) plus a few context fields.
 * `credits.purchased` is checked where purchases are (checkout.test.ts).
 */
let t: TestApp;
let heads: Head[];
beforeAll(async () => {
  t = await createTestApp({ now: '2026-11-23T10:00:00.000Z', env: NO_RATE_LIMITS });
  heads = await seedHeads(t, 40);
});
afterAll(async () => {
  await t?.close();
});

/** choiceDraft costs 12 credits an answer at tier 1. */
const PER_ANSWER = 12;

const post = (url: string, headers: Record<string, string>, payload: object = {}) => t.inject({ method: 'POST', url, headers, payload });
const get = (url: string, headers: Record<string, string>) => t.inject({ method: 'GET', url, headers });
const patchAlerts = (headers: Record<string, string>, payload: unknown) => t.inject({ method: 'PATCH', url: '/v1/billing/alerts', headers, payload: payload as object });

/** The one event of `type` of the account (fails when there is not exactly one). */
async function onlyEvent(accountId: string, type: string): Promise<{ uniqueRef: string; data: Json }> {
  const events = await accountEvents(t, accountId, type);
  expect(events, `${type} events`).toHaveLength(1);
  return { uniqueRef: events[0].uniqueRef, data: events[0].data };
}

describe('question events: data.question is GET /v2/questions/{id} after the change', () => {
  it('question.reserved on an ask: the Question as the 201 and GET return it, creditsReserved with follow-ups; a replay emits nothing', async () => {
    const key = await fundedKey(t, 10_000);
    const idempotencyKey = randomUUID();
    const response = await askRaw(t, key, { draft: choiceDraft(), then: [{ text: 'Why did you pick that name?' }] }, { idempotencyKey });
    expect(response.statusCode, response.body).toBe(201);
    const question = response.json().question;
    const event = await onlyEvent(key.accountId, 'question.reserved');
    // 10 × 12 for the question, 20 × 48 for its follow-up.
    expect(event.data).toEqual({ question: await getQuestion(t, key, question.id), creditsReserved: 120 + 20 * 48 });
    expect(event.data.question).toEqual(question);
    expect(event.data.question).toMatchObject({ status: 'live', creditsReserved: 120 });

    expect((await askRaw(t, key, { draft: choiceDraft(), then: [{ text: 'Why did you pick that name?' }] }, { idempotencyKey })).headers['idempotent-replayed']).toBe('true');
    await onlyEvent(key.accountId, 'question.reserved');
  });

  it('question.completed by the last answer: the closed Question, refundCredits 0', async () => {
    const key = await fundedKey(t, 10_000);
    const question = await ask(t, key, choiceDraft());
    await answerAll(t, question.id, heads.slice(0, 10));
    const event = await onlyEvent(key.accountId, 'question.completed');
    expect(event.data).toEqual({ question: await getQuestion(t, key, question.id), refundCredits: 0 });
    expect(event.data.question).toMatchObject({ status: 'complete', answered: 10, creditsSpent: 120, closedAt: t.clock.now().toISOString() });
  });

  it('question.cancelled: the Question the cancel returns, and what it refunded', async () => {
    const key = await fundedKey(t, 10_000);
    const question = await ask(t, key, choiceDraft());
    await answerAll(t, question.id, heads.slice(0, 3));
    const cancelled = await post(`/v2/questions/${question.id}/cancel`, key.auth);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const event = await onlyEvent(key.accountId, 'question.cancelled');
    expect(event.data).toEqual({ question: cancelled.json().question, refundCredits: 120 - 3 * PER_ANSWER });
    expect(event.data.question).toEqual(await getQuestion(t, key, question.id));
    expect(event.data.question).toMatchObject({ status: 'cancelled', answered: 3 });
  });

  it('question.underfilled when the window runs out', async () => {
    const key = await fundedKey(t, 10_000);
    const question = await ask(t, key, choiceDraft());
    await answerAll(t, question.id, heads.slice(0, 2));
    t.clock.advance(7 * DAY + 1_000);
    await t.container.lifecycle.sweep();
    const event = await onlyEvent(key.accountId, 'question.underfilled');
    expect(event.data).toEqual({ question: await getQuestion(t, key, question.id), refundCredits: 120 - 2 * PER_ANSWER });
    expect(event.data.question).toMatchObject({ status: 'underfilled', answered: 2 });
  });

  it('question.refused in review, with its category', async () => {
    const key = await fundedKey(t, 10_000);
    const question = await ask(t, key, choiceDraft());
    await t.container.lifecycle.refuse(question.id, 'personal_data');
    const event = await onlyEvent(key.accountId, 'question.refused');
    expect(event.data).toEqual({ question: await getQuestion(t, key, question.id), refundCredits: 120 });
    expect(event.data.question).toMatchObject({ status: 'refused', refusedCategory: 'personal_data' });
  });

  it('question.reserved on added heads: the reopened Question, creditsReserved and addedHeads; a replay emits nothing', async () => {
    const key = await fundedKey(t, 10_000);
    const question = await ask(t, key, choiceDraft());
    await answerAll(t, question.id, heads.slice(0, 10));
    const idempotencyKey = randomUUID();
    const add = () => t.inject({ method: 'POST', url: `/v2/questions/${question.id}/heads`, headers: { ...key.auth, 'idempotency-key': idempotencyKey }, payload: { n: 5 } });
    const response = await add();
    expect(response.statusCode, response.body).toBe(201);
    const events = await accountEvents(t, key.accountId, 'question.reserved');
    expect(events).toHaveLength(2);
    expect(events[1].data).toEqual({ question: response.json().question, creditsReserved: 5 * PER_ANSWER, addedHeads: 5 });
    expect(events[1].data.question).toEqual(await getQuestion(t, key, question.id));
    expect(events[1].data.question).toMatchObject({ status: 'live', n: 15, creditsReserved: 180, closedAt: null });

    expect((await add()).headers['idempotent-replayed']).toBe('true');
    expect(await accountEvents(t, key.accountId, 'question.reserved')).toHaveLength(2);
  });
});

describe('dispute.resolved', () => {
  it('data.dispute is GET /v2/questions/{id}/dispute after the decision, with the question and the refund', async () => {
    const key = await fundedKey(t, 10_000);
    const question = await ask(t, key, choiceDraft());
    await answerAll(t, question.id, heads.slice(0, 10));
    expect((await post(`/v2/questions/${question.id}/dispute`, key.auth, { reason: 'Several answers were off topic.' })).statusCode).toBe(200);
    const [open] = await t.container.moderation.listDisputes({ accountId: key.accountId, status: 'open' });
    await t.container.moderation.decideDispute(open.id, { outcome: 'upheld', refund: 30, note: 'Two answers were off topic.' });
    const event = await onlyEvent(key.accountId, 'dispute.resolved');
    const readBack = await get(`/v2/questions/${question.id}/dispute`, key.auth);
    expect(event.data).toEqual({ dispute: readBack.json().dispute, questionId: question.id, refundCredits: 30 });
    expect(event.data.dispute).toMatchObject({ id: open.id, status: 'upheld', decision: 'Two answers were off topic.', refundCredits: 30 });
  });
});

describe('credits.low: once per crossing of the account threshold', () => {
  it('an ask that crosses 1,000 (the default) writes it with the balance as GET returns it; staying below writes nothing; back above and down again writes another', async () => {
    const key = await fundedKey(t, 1_100);
    const first = await ask(t, key, choiceDraft()); // 1,100 → 980
    const event = await onlyEvent(key.accountId, 'credits.low');
    expect(event).toEqual({ uniqueRef: `credits.low:${first.id}:ask`, data: { balance: await balanceOf(t, key), threshold: 1000 } });
    expect(event.data.balance).toMatchObject({ credits: 1_100, reserved: 120, capRemaining: null });

    const second = await ask(t, key, choiceDraft()); // 980 → 860: already below
    expect(await accountEvents(t, key.accountId, 'credits.low')).toHaveLength(1);

    // Refunds take it back up: still below after one (980), above after both (1,100).
    expect((await post(`/v2/questions/${second.id}/cancel`, key.auth)).statusCode).toBe(200); // 980
    expect(await accountEvents(t, key.accountId, 'credits.low')).toHaveLength(1);
    expect((await post(`/v2/questions/${first.id}/cancel`, key.auth)).statusCode).toBe(200); // 1,100: above again
    const third = await ask(t, key, choiceDraft()); // 1,100 → 980: a second crossing
    let events = await accountEvents(t, key.accountId, 'credits.low');
    expect(events.map((e) => e.uniqueRef)).toEqual([`credits.low:${first.id}:ask`, `credits.low:${third.id}:ask`]);
    expect(events[1].data).toEqual({ balance: await balanceOf(t, key), threshold: 1000 });

    // A top-up above it, then down again: a third.
    await grant(t, key.accountId, 100); // 1,080
    const fourth = await ask(t, key, choiceDraft()); // 960
    events = await accountEvents(t, key.accountId, 'credits.low');
    expect(events.map((e) => e.uniqueRef)).toEqual([`credits.low:${first.id}:ask`, `credits.low:${third.id}:ask`, `credits.low:${fourth.id}:ask`]);
    // Exactly the threshold is not below it.
    const exact = await fundedKey(t, 1_120);
    await ask(t, exact, choiceDraft()); // 1,000
    expect(await accountEvents(t, exact.accountId, 'credits.low')).toEqual([]);
    await expectReconciled(t);
  });

  it('added heads that cross it write it, keyed by their ledger row', async () => {
    const key = await fundedKey(t, 1_180);
    const question = await ask(t, key, choiceDraft()); // 1,060
    await answerAll(t, question.id, heads.slice(0, 10));
    expect(await accountEvents(t, key.accountId, 'credits.low')).toEqual([]);
    const response = await t.inject({ method: 'POST', url: `/v2/questions/${question.id}/heads`, headers: { ...key.auth, 'idempotency-key': randomUUID() }, payload: { n: 10 } });
    expect(response.statusCode, response.body).toBe(201); // 1,060 → 940
    const event = await onlyEvent(key.accountId, 'credits.low');
    expect(event).toEqual({ uniqueRef: `credits.low:${question.id}:ask:r240`, data: { balance: await balanceOf(t, key), threshold: 1000 } });
  });

  it('the expiry job that takes credits out across it writes it, in the same transaction', async () => {
    const key = await fundedKey(t, 900);
    await t.container.credits.grant({ accountId: key.accountId, amount: 300, reason: 'Credits that expire', expiresInDays: 1 });
    t.clock.advance(DAY + 1_000);
    expect(await accountEvents(t, key.accountId, 'credits.low')).toEqual([]);
    while ((await t.container.credits.expireDue()) > 0);
    const event = await onlyEvent(key.accountId, 'credits.low');
    expect(event.uniqueRef).toMatch(/^credits\.low:expiry:lot_/);
    expect(event.data).toEqual({ balance: await balanceOf(t, key), threshold: 1000 });
    expect(event.data.balance).toMatchObject({ credits: 900, reserved: 0 });
    // Run again: nothing more to expire, nothing more to say.
    await t.container.credits.expireDue();
    expect(await accountEvents(t, key.accountId, 'credits.low')).toHaveLength(1);
  });

  it('follows the account threshold set with PATCH /v1/billing/alerts; 0 is never', async () => {
    const person = await signIn(t);
    await grant(t, person.personalAccountId, 5_100);
    const set = await patchAlerts(person.auth, { lowCreditsThreshold: 5_000 });
    expect(set.statusCode, set.body).toBe(200);
    const asked = await post('/v2/questions', { ...person.auth, 'idempotency-key': randomUUID() }, { draft: choiceDraft() }); // 5,100 → 4,980
    expect(asked.statusCode, asked.body).toBe(201);
    const event = await onlyEvent(person.personalAccountId, 'credits.low');
    expect(event.data).toEqual({ balance: (await get('/v1/billing/balance', person.auth)).json(), threshold: 5_000 });

    // 0: never, not even across the default.
    const other = await signIn(t);
    await grant(t, other.personalAccountId, 1_100);
    expect((await patchAlerts(other.auth, { lowCreditsThreshold: 0 })).json()).toEqual({ alerts: { lowCreditsThreshold: 0 } });
    for (let i = 0; i < 3; i++) expect((await post('/v2/questions', { ...other.auth, 'idempotency-key': randomUUID() }, { draft: choiceDraft() })).statusCode).toBe(201);
    expect(await accountEvents(t, other.personalAccountId, 'credits.low')).toEqual([]);
  });
});

describe('GET and PATCH /v1/billing/alerts', () => {
  it('GET with account:read (key or session) shows the default 1000, then what a session set', async () => {
    const person = await signIn(t);
    const key = await t.makeKey(['account:read'], null, { accountId: person.personalAccountId });
    expect((await get('/v1/billing/alerts', key.auth)).json()).toEqual({ alerts: { lowCreditsThreshold: 1000 } });
    expect((await get('/v1/billing/alerts', person.auth)).json()).toEqual({ alerts: { lowCreditsThreshold: 1000 } });
    const set = await patchAlerts(person.auth, { lowCreditsThreshold: 250 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ alerts: { lowCreditsThreshold: 250 } });
    expect((await get('/v1/billing/alerts', key.auth)).json()).toEqual({ alerts: { lowCreditsThreshold: 250 } });
    // The balance is untouched by it.
    expect((await balanceOf(t, key)).credits).toBe(0);
    // Set again on an account that now has a balance row.
    await grant(t, person.personalAccountId, 10);
    expect((await patchAlerts(person.auth, { lowCreditsThreshold: 10_000_000 })).json()).toEqual({ alerts: { lowCreditsThreshold: 10_000_000 } });
    expect((await balanceOf(t, key)).credits).toBe(10);
  });

  it('GET without account:read is 403; without a credential 401', async () => {
    const key = await t.makeKey(['questions:read']);
    const response = await get('/v1/billing/alerts', key.auth);
    expect(response.statusCode).toBe(403);
    expect(errorOf(response).code).toBe('insufficient_scope');
    expect((await t.inject({ method: 'GET', url: '/v1/billing/alerts' })).statusCode).toBe(401);
  });

  it('PATCH is for a portal session only: an API key (even with every scope) gets 403 insufficient_scope and changes nothing', async () => {
    const key = await fundedKey(t, 0);
    const response = await patchAlerts(key.auth, { lowCreditsThreshold: 5 });
    expect(response.statusCode, response.body).toBe(403);
    expect(errorOf(response).code).toBe('insufficient_scope');
    expect((await get('/v1/billing/alerts', key.auth)).json()).toEqual({ alerts: { lowCreditsThreshold: 1000 } });
  });

  it('PATCH refuses a bad body with 400: missing, unknown properties, out of range, not an integer', async () => {
    const person = await signIn(t);
    for (const body of [{}, { lowCreditsThreshold: 5, colour: 'red' }, { lowCreditsThreshold: -1 }, { lowCreditsThreshold: 10_000_001 }, { lowCreditsThreshold: 1.5 }, { lowCreditsThreshold: '100' }, { lowCreditsThreshold: null }]) {
      const response = await patchAlerts(person.auth, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(response).code).toBe('validation_failed');
    }
    expect((await get('/v1/billing/alerts', person.auth)).json()).toEqual({ alerts: { lowCreditsThreshold: 1000 } });
  });

  it('on a team, owners and admins set it; a member gets 403', async () => {
    const owner = await signIn(t);
    const made = await post('/v1/teams', owner.auth, { name: 'Alert Labs', currency: 'GBP' });
    expect(made.statusCode, made.body).toBe(201);
    const team = made.json().account.accountId;
    const join = async (role: 'admin' | 'member'): Promise<SignedInPerson> => {
      const email = newEmail(role);
      expect((await post(`/v1/accounts/${team}/invitations`, owner.auth, { email, role })).statusCode).toBe(201);
      const person = await signIn(t, email);
      const id = (await get('/v1/invitations', person.auth)).json().invitations.find((i: Json) => i.accountId === team).id;
      expect((await post(`/v1/invitations/${id}/accept`, person.auth)).statusCode).toBe(200);
      return person;
    };
    const admin = await join('admin');
    const member = await join('member');
    expect((await patchAlerts(owner.as(team), { lowCreditsThreshold: 300 })).statusCode).toBe(200);
    expect((await patchAlerts(admin.as(team), { lowCreditsThreshold: 400 })).json()).toEqual({ alerts: { lowCreditsThreshold: 400 } });
    const refused = await patchAlerts(member.as(team), { lowCreditsThreshold: 0 });
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).code).toBe('insufficient_scope');
    expect((await get('/v1/billing/alerts', member.as(team))).json()).toEqual({ alerts: { lowCreditsThreshold: 400 } });
    // The member's own account is theirs.
    expect((await patchAlerts(member.auth, { lowCreditsThreshold: 0 })).statusCode).toBe(200);
  });
});

describe('credits.expiring: the daily job, once per lot that expires within 7 days', () => {
  it('warns of each lot with credits left expiring within the week, once across runs; not of later, empty or lasting lots', async () => {
    const job = creditsJobs(t.container.credits).find((j) => j.name === 'credits-expiring');
    expect(job?.cron).toBe('5 8 * * *');
    const key = await fundedKey(t, 500); // never expires
    const grantLot = async (accountId: string, amount: number, days: number) => {
      await t.container.credits.grant({ accountId, amount, reason: 'Credits that expire', expiresInDays: days });
      const lot = await t.db.selectFrom('credit_lots').select(['id', 'expires_at']).where('account_id', '=', accountId).where('amount', '=', amount).executeTakeFirstOrThrow();
      return { id: lot.id, expiresAt: (lot.expires_at as Date).toISOString() };
    };
    const soon = await grantLot(key.accountId, 300, 3);
    const later = await grantLot(key.accountId, 400, 10);
    // An account whose soon-expiring lot was spent to nothing.
    const emptied = await fundedKey(t, 0);
    await grantLot(emptied.accountId, 200, 5);
    await t.container.credits.grant({ accountId: emptied.accountId, amount: -200, reason: 'Correction', kind: 'adjustment' });

    await job!.handler({});
    const event = await onlyEvent(key.accountId, 'credits.expiring');
    expect(event).toEqual({
      uniqueRef: `credits.expiring:${soon.id}:${soon.expiresAt}`,
      data: { credits: 300, expiresAt: soon.expiresAt, lotId: soon.id, balance: await balanceOf(t, key) },
    });
    expect(event.data.balance.expiring).toEqual([{ credits: 300, expiresAt: soon.expiresAt }, { credits: 400, expiresAt: later.expiresAt }]);
    expect(await accountEvents(t, emptied.accountId, 'credits.expiring')).toEqual([]);

    // The next day's run: nothing new.
    t.clock.advance(DAY);
    expect(await t.container.credits.warnExpiring()).toBe(0);
    expect(await accountEvents(t, key.accountId, 'credits.expiring')).toHaveLength(1);

    // Once the later lot is within the week (and what is left of it after an ask is what it says).
    await ask(t, key, choiceDraft()); // 120 from the soonest-expiring lot
    t.clock.advance(3 * DAY);
    await job!.handler({});
    const events = await accountEvents(t, key.accountId, 'credits.expiring');
    expect(events.map((e) => e.data.lotId)).toEqual([soon.id, later.id]);
    expect(events[1].data).toEqual({ credits: 400, expiresAt: later.expiresAt, lotId: later.id, balance: await balanceOf(t, key) });
    await job!.handler({});
    expect(await accountEvents(t, key.accountId, 'credits.expiring')).toHaveLength(2);
  });

  it('pages through many lots in batches, each lot once', async () => {
    const key = await fundedKey(t, 0);
    for (let i = 0; i < 7; i++) await t.container.credits.grant({ accountId: key.accountId, amount: 10 + i, reason: 'Credits that expire', expiresInDays: 2 });
    // Small pages: every lot is found once, whatever else the database holds.
    while ((await t.container.credits.warnExpiring(3)) > 0);
    const events = await accountEvents(t, key.accountId, 'credits.expiring');
    expect(events.map((e) => e.data.credits).sort((a, b) => a - b)).toEqual([10, 11, 12, 13, 14, 15, 16]);
    expect(new Set(events.map((e) => e.data.lotId)).size).toBe(7);
    expect(await t.container.credits.warnExpiring(3)).toBe(0);
  });
});

describe('connection.cap_warning: the day reaches 80% of a daily cap, once per key and UTC day', () => {
  const draftOf = (n: number) => choiceDraft({ n });

  it('a key: at exactly 80% it is written once; a refund and a new crossing the same day add nothing; the next day warns again', async () => {
    const key = await fundedKey(t, 100_000, 1_500); // 80% = 1,200
    const first = await ask(t, key, draftOf(50)); // 600
    expect(await accountEvents(t, key.accountId, 'connection.cap_warning')).toEqual([]);
    await ask(t, key, draftOf(50)); // 1,200: exactly 80%
    const day = t.clock.now().toISOString().slice(0, 10);
    const event = await onlyEvent(key.accountId, 'connection.cap_warning');
    expect(event).toEqual({
      uniqueRef: `connection.cap_warning:${key.keyId}:${day}`,
      data: { connection: { id: key.keyId, kind: 'key', name: expect.stringMatching(/^test key \d+$/) }, dailyCapCredits: 1_500, spentToday: 1_200, day },
    });
    expect((await balanceOf(t, key)).capRemaining).toBe(300);

    // Cancelled the same day: the cap comes back (net spend 600); crossing again says nothing new.
    expect((await post(`/v2/questions/${first.id}/cancel`, key.auth)).statusCode).toBe(200);
    expect((await balanceOf(t, key)).capRemaining).toBe(900);
    await ask(t, key, draftOf(50)); // 1,200 again
    expect(await accountEvents(t, key.accountId, 'connection.cap_warning')).toHaveLength(1);

    // The next UTC day.
    const now = t.clock.now();
    t.clock.set(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 0, 30)));
    const nextDay = t.clock.now().toISOString().slice(0, 10);
    await ask(t, key, draftOf(50)); // 600
    expect(await accountEvents(t, key.accountId, 'connection.cap_warning')).toHaveLength(1);
    await ask(t, key, draftOf(60)); // 1,320: past 80%
    const events = await accountEvents(t, key.accountId, 'connection.cap_warning');
    expect(events.map((e) => e.uniqueRef)).toEqual([`connection.cap_warning:${key.keyId}:${day}`, `connection.cap_warning:${key.keyId}:${nextDay}`]);
    expect(events[1].data).toMatchObject({ dailyCapCredits: 1_500, spentToday: 1_320, day: nextDay });
    await expectReconciled(t);
  });

  it('below 80% nothing; a key without a cap never', async () => {
    const capped = await fundedKey(t, 100_000, 10_000);
    await ask(t, capped, draftOf(50)); // 600 of 10,000
    const uncapped = await fundedKey(t, 100_000);
    for (let i = 0; i < 3; i++) await ask(t, uncapped, draftOf(50));
    expect(await accountEvents(t, capped.accountId, 'connection.cap_warning')).toEqual([]);
    expect(await accountEvents(t, uncapped.accountId, 'connection.cap_warning')).toEqual([]);
  });

  it('an OAuth connection: named after its app, kind oauth, on the account it acts for', async () => {
    const person = await signIn(t);
    await grant(t, person.personalAccountId, 10_000);
    const grantId = `grant_${randomUUID()}`;
    const connectionId = await t.container.connections.create({
      personId: person.personId,
      accountId: person.personalAccountId,
      clientId: 'https://agent.example/client.json',
      clientName: 'Research Agent',
      grantId,
      scopes: [...SCOPES],
      dailyCapCredits: 1_000,
      autoApproveCredits: 0,
    });
    const actor = await t.container.connections.actorFor(grantId, SCOPES);
    await t.container.asks.ask(actor, { draft: draftOf(70) } as never, randomUUID()); // 840 of 1,000
    const day = t.clock.now().toISOString().slice(0, 10);
    const event = await onlyEvent(person.personalAccountId, 'connection.cap_warning');
    expect(event).toEqual({
      uniqueRef: `connection.cap_warning:${connectionId}:${day}`,
      data: { connection: { id: connectionId, kind: 'oauth', name: 'Research Agent' }, dailyCapCredits: 1_000, spentToday: 840, day },
    });
  });
});

describe('the events of an ask are in its transaction', () => {
  it('an ask refused for credits writes no event at all', async () => {
    const key = await fundedKey(t, 100, 1_000);
    const before = await t.db.selectFrom('outbox_events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const refused = await askRaw(t, key, { draft: choiceDraft() });
    expect(refused.statusCode).toBe(402);
    const after = await t.db.selectFrom('outbox_events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    expect(await accountEvents(t, key.accountId)).toEqual([]);
  });
});
