import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { isServerRun } from '../helpers/test-database.ts';
import { askRaw, balanceOf, choiceDraft, DAY, errorOf, expectReconciled, fundedKey, ledgerOf, NO_RATE_LIMITS, type Json } from '../helpers/questions.ts';
import { pricePerAnswer } from '../helpers/money.ts';
import type { QuestionDraft } from '../../src/modules/draft/draft.schemas.ts';

/**
 * Credits past their expiry are never spent (issue 8, points 1, 2 and 16; docs/credits.md
 * "Expiry", "Lock order" and "Daily spend cap"): not by an ask, not by a negative adjustment,
 * whether or not the expiry job has emptied them yet; the balance never shows them; an ask
 * racing the expiry job is never a 500 (the job locks the balance before the lots, as asks do);
 * and a refund on the day of the ask gives a capped key its cap back.
 */
const SERVER = isServerRun();
const DRAFT = choiceDraft();
const PRICE = pricePerAnswer(DRAFT as QuestionDraft) * DRAFT.n;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: '2026-11-23T10:00:00.000Z', env: { ...NO_RATE_LIMITS, DATABASE_POOL_SIZE: '20' } });
});
afterAll(async () => {
  await t?.close();
});

const status = (response: LightMyRequestResponse) => response.statusCode;

/** A key of a new account holding `lasting` credits that never expire and `expiring` that expire in `days`. */
async function accountWith(lasting: number, expiring: number, days = 1, cap: number | null = null): Promise<TestKey> {
  const key = await fundedKey(t, lasting, cap);
  if (expiring) await t.container.credits.grant({ accountId: key.accountId, amount: expiring, reason: 'Credits that expire', expiresInDays: days });
  return key;
}

describe('credits past their expiry, before the expiry job runs', () => {
  it('are not in the balance, cannot pay for an ask (402 names what is spendable), and the job then expires them whole', async () => {
    const key = await accountWith(0, PRICE * 2, 1);
    const before = await balanceOf(t, key);
    expect(before).toMatchObject({ credits: PRICE * 2, reserved: 0, expiring: [{ credits: PRICE * 2 }] });

    t.clock.advance(DAY + 1000);
    expect(await balanceOf(t, key)).toMatchObject({ credits: 0, reserved: 0, expiring: [] });
    const refused = await askRaw(t, key, { draft: DRAFT });
    expect(status(refused), refused.body).toBe(402);
    expect(errorOf(refused)).toMatchObject({ code: 'insufficient_credits', details: { needed: PRICE, available: 0 } });

    expect(await t.container.credits.expireDue()).toBe(1);
    const rows = await ledgerOf(t, key);
    expect(rows.filter((r) => r.kind === 'expiry').map((r) => r.amount)).toEqual([-PRICE * 2]);
    expect(rows.some((r) => r.kind === 'ask')).toBe(false);
    await expectReconciled(t);
  });

  it('an ask spends only the credits still valid, and is refused when those do not cover it', async () => {
    const key = await accountWith(PRICE, PRICE * 3, 2);
    t.clock.advance(2 * DAY);
    expect((await balanceOf(t, key)).credits).toBe(PRICE);
    expect(status(await askRaw(t, key, { draft: DRAFT }))).toBe(201);
    const second = await askRaw(t, key, { draft: DRAFT });
    expect(status(second), second.body).toBe(402);
    expect(errorOf(second).details).toMatchObject({ available: 0 });
    expect(await balanceOf(t, key)).toMatchObject({ credits: PRICE, reserved: PRICE });
    await t.container.credits.expireDue();
    const rows = await ledgerOf(t, key);
    expect(rows.filter((r) => r.kind === 'expiry').reduce((s: number, r: Json) => s + r.amount, 0)).toBe(-PRICE * 3);
    await expectReconciled(t);
  });

  // The spending rule (docs/credits.md "Expiry") is one SQL statement (credits-reserve.repository.ts),
  // the same for an ask, added heads and an operator's removal.
  it('lots are spent soonest-expiring first and never-expiring last; one expiring exactly now is expired', async () => {
    const key = await accountWith(0, 500, 1);
    t.clock.advance(DAY); // those 500 expire at this very instant
    for (const [amount, days] of [[30, 1], [50, 8], [PRICE * 2, null]] as const) {
      await t.container.credits.grant({ accountId: key.accountId, amount, reason: 'Credits in lots', expiresInDays: days });
    }
    const lots = async () =>
      (await t.db.selectFrom('credit_lots').select(['id', 'amount', 'remaining']).where('account_id', '=', key.accountId).orderBy(sql`expires_at ASC NULLS LAST`).execute()).map((l) => [l.amount, l.remaining]);
    await t.container.credits.grant({ accountId: key.accountId, amount: -60, reason: 'Correction', kind: 'adjustment' });
    expect(await lots()).toEqual([[500, 500], [30, 0], [50, 20], [PRICE * 2, PRICE * 2]]);
    const asked = await askRaw(t, key, { draft: DRAFT });
    expect(status(asked), asked.body).toBe(201);
    expect(await lots()).toEqual([[500, 500], [30, 0], [50, 0], [PRICE * 2, PRICE + 20]]);
    const uses = await t.db.selectFrom('lot_uses as u').innerJoin('credit_lots as l', 'l.id', 'u.lot_id').select(['l.amount', 'u.amount as took']).where('u.question_id', '=', asked.json().question.id).orderBy('l.amount').execute();
    expect(uses.map((u) => [u.amount, u.took])).toEqual([[50, 20], [PRICE * 2, PRICE - 20]].sort((a, b) => a[0] - b[0]));
    // What is left to spend is the never-expiring lot alone, though the balance row still counts the 500.
    const refused = await t.container.credits.grant({ accountId: key.accountId, amount: -(PRICE + 21), reason: 'Correction', kind: 'adjustment' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'insufficient_credits' });
    await t.container.credits.expireDue();
    await expectReconciled(t);
  });

  it('a negative adjustment cannot take them either', async () => {
    const key = await accountWith(100, 500, 1);
    t.clock.advance(DAY);
    const refused = await t.container.credits.grant({ accountId: key.accountId, amount: -101, reason: 'Correction', kind: 'adjustment' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'insufficient_credits' });
    const done = await t.container.credits.grant({ accountId: key.accountId, amount: -100, reason: 'Correction', kind: 'adjustment' });
    expect(done.balance).toEqual({ available: 0, reserved: 0 });
    await t.container.credits.expireDue();
    await expectReconciled(t);
  });
});

/** Many accounts with due lots, asks of every one of them while the expiry job runs several times at once. */
async function askRacingExpiry(accounts: number, asksEach: number, jobs: number): Promise<void> {
  const keys: TestKey[] = [];
  for (let i = 0; i < accounts; i++) keys.push(await accountWith(PRICE * 2, PRICE * 5, 1));
  t.clock.advance(DAY + 1000);
  const asks = keys.flatMap((key) => Array.from({ length: asksEach }, () => askRaw(t, key, { draft: DRAFT })));
  const sweeps = Array.from({ length: jobs }, async () => {
    let total = 0;
    for (let n = await t.container.credits.expireDue(3); n > 0; n = await t.container.credits.expireDue(3)) total += n;
    return total;
  });
  const [responses, expired] = await Promise.all([Promise.all(asks), Promise.all(sweeps)]);
  for (const response of responses) {
    expect([201, 402], response.body).toContain(response.statusCode);
    if (response.statusCode === 402) expect(errorOf(response).code).toBe('insufficient_credits');
  }
  expect(expired.reduce((a, b) => a + b, 0)).toBe(accounts);
  for (const key of keys) {
    const rows = await ledgerOf(t, key);
    // Only the two asks the lasting credits pay for; the expiring credits expired whole.
    expect(rows.filter((r) => r.kind === 'ask').length, key.accountId).toBe(Math.min(2, asksEach));
    expect(rows.filter((r) => r.kind === 'expiry').reduce((s: number, r: Json) => s + r.amount, 0)).toBe(-PRICE * 5);
  }
  await expectReconciled(t);
}

describe.skipIf(!SERVER)('on PostgreSQL, in parallel', () => {
  it('asks racing the credit-expiry job: never a 500 (no deadlock), no expired credit spent, the job expires every due lot', async () => {
    await askRacingExpiry(24, 5, 4);
  });
});

describe('on any database, a light version', () => {
  it('asks racing the credit-expiry job', async () => {
    await askRacingExpiry(3, 3, 2);
  });
});

describe('the daily cap counts net spend', () => {
  it('cancelling today gives the cap back; the next ask fits again', async () => {
    const key = await accountWith(PRICE * 10, 0, 1, PRICE);
    const first = await askRaw(t, key, { draft: DRAFT });
    expect(status(first), first.body).toBe(201);
    expect((await balanceOf(t, key)).capRemaining).toBe(0);
    expect(errorOf(await askRaw(t, key, { draft: DRAFT })).code).toBe('spend_cap_exceeded');

    const id = first.json().question.id;
    const cancel = await t.inject({ method: 'POST', url: `/v2/questions/${id}/cancel`, headers: key.auth });
    expect(cancel.json().refundCredits).toBe(PRICE);
    expect((await balanceOf(t, key)).capRemaining).toBe(PRICE);
    expect(status(await askRaw(t, key, { draft: DRAFT }))).toBe(201);
    await expectReconciled(t);
  });

  it("a refund on a later day gives nothing back to that day's cap", async () => {
    // Late in the UTC day, so that the cancel falls on the next one.
    t.clock.set(new Date(Date.UTC(2027, 0, 10, 23, 0, 0)));
    const key = await accountWith(PRICE * 10, 0, 1, PRICE * 2);
    const first = await askRaw(t, key, { draft: DRAFT });
    expect(status(first)).toBe(201);
    t.clock.advance(2 * 3_600_000);
    const second = await askRaw(t, key, { draft: DRAFT });
    expect(status(second)).toBe(201);
    expect((await balanceOf(t, key)).capRemaining).toBe(PRICE);
    await t.inject({ method: 'POST', url: `/v2/questions/${first.json().question.id}/cancel`, headers: key.auth });
    expect((await balanceOf(t, key)).capRemaining).toBe(PRICE);
    await t.inject({ method: 'POST', url: `/v2/questions/${second.json().question.id}/cancel`, headers: key.auth });
    expect((await balanceOf(t, key)).capRemaining).toBe(PRICE * 2);
    await expectReconciled(t);
  });

  it("a refund gives back only to the key that reserved, and never more than it reserved that day", async () => {
    const capped = await accountWith(PRICE * 10, 0, 1, PRICE * 3);
    const other = await t.makeKey(undefined, PRICE * 3, { accountId: capped.accountId });
    const q = (await askRaw(t, capped, { draft: DRAFT })).json().question;
    await t.inject({ method: 'POST', url: `/v2/questions/${q.id}/cancel`, headers: other.auth });
    expect((await balanceOf(t, capped)).capRemaining).toBe(PRICE * 3);
    expect((await balanceOf(t, other)).capRemaining).toBe(PRICE * 3);
    await expectReconciled(t);
  });
});
