import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { AppError } from '../../src/lib/errors.ts';

/**
 * Credits (spec "Credits", "Balance", "Ledger row"; docs/credits.md; R3.1, R3.3): what an operator's
 * grant does to GET /v1/billing/balance and GET /v1/billing/ledger, expiry on the fake clock,
 * pagination, reconciliation and the immutability of ledger rows.
 */
type Json = Record<string, any>;
const DAY = 86_400_000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function balanceOf(key: TestKey): Promise<Json> {
  const response = await t.inject({ method: 'GET', url: '/v1/billing/balance', headers: key.auth });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function ledgerOf(key: TestKey, cursor?: string): Promise<{ rows: Json[]; nextCursor: string | null }> {
  const url = cursor === undefined ? '/v1/billing/ledger' : `/v1/billing/ledger?cursor=${encodeURIComponent(cursor)}`;
  const response = await t.inject({ method: 'GET', url, headers: key.auth });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const grant = (key: TestKey, amount: number, reason: string, extra: { kind?: 'bonus' | 'adjustment'; expiresInDays?: number } = {}) =>
  t.container.credits.grant({ accountId: key.accountId, amount, reason, ...extra });

describe('a new account', () => {
  it('has no credits, nothing reserved or expiring, the account currency and an empty ledger', async () => {
    const key = await t.makeKey(['account:read']);
    const account = await t.db.selectFrom('accounts').select(['name', 'kind']).where('id', '=', key.accountId).executeTakeFirstOrThrow();
    expect(await balanceOf(key)).toEqual({ credits: 0, reserved: 0, expiring: [], currency: 'GBP', capRemaining: null, freeQuestionToday: true, account: { id: key.accountId, ...account } });
    expect(await ledgerOf(key)).toEqual({ rows: [], nextCursor: null });
  });

  it('shows its own currency', async () => {
    const account = await t.container.accounts.createAccount({ name: 'Dollar account', currency: 'USD' });
    const key = await t.makeKey(['account:read'], null, { accountId: account.id });
    expect((await balanceOf(key)).currency).toBe('USD');
  });
});

describe('grants', () => {
  let key: TestKey;
  beforeAll(async () => {
    key = await t.makeKey(['account:read']);
  });

  it('a grant shows in the balance and as a bonus row with a readable title, newest first', async () => {
    const first = await grant(key, 500, 'Welcome credits');
    expect(first.entry).toMatchObject({ kind: 'bonus', amount: 500, state: 'available' });
    t.clock.advance(60_000);
    await grant(key, 250, 'Thanks for the feedback');
    expect(await balanceOf(key)).toMatchObject({ credits: 750, reserved: 0, expiring: [] });

    const { rows, nextCursor } = await ledgerOf(key);
    expect(nextCursor).toBeNull();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ kind: 'bonus', state: 'available', amount: 250, ref: null, at: t.clock.now().toISOString() });
    expect(rows[1]).toMatchObject({ kind: 'bonus', state: 'available', amount: 500, ref: null, id: first.entry.id });
    expect(rows[0].title).toContain('Thanks for the feedback');
    expect(rows[1].title).toContain('Welcome credits');
    expect(rows[0].title).not.toMatch(/grant:|[0-9a-f]{8}-[0-9a-f]{4}/);
    expect(rows[0].id).toMatch(/^led_/);
    expect(new Date(rows[0].at).getTime()).toBeGreaterThan(new Date(rows[1].at).getTime());
  });

  it('a negative adjustment within the balance is an adjustment row', async () => {
    const before = (await balanceOf(key)).credits;
    await grant(key, -100, 'Correction of a double grant', { kind: 'adjustment' });
    expect((await balanceOf(key)).credits).toBe(before - 100);
    const [row] = (await ledgerOf(key)).rows;
    expect(row).toMatchObject({ kind: 'adjustment', amount: -100 });
    expect(row.title).toContain('Correction of a double grant');
  });

  it('a negative adjustment below zero is refused with insufficient_credits, and nothing changes', async () => {
    const before = { balance: await balanceOf(key), ledger: await ledgerOf(key) };
    const error = await grant(key, -(before.balance.credits + 1), 'Too much').then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('insufficient_credits');
    expect((error as AppError).status).toBe(402);
    expect(await balanceOf(key)).toEqual(before.balance);
    expect(await ledgerOf(key)).toEqual(before.ledger);
    expect(await t.container.credits.reconcile()).toEqual([]);
  });

  it.each([
    ['a zero amount', 0, 'Nothing', {}],
    ['a fractional amount', 1.5, 'Half', {}],
    ['a negative bonus', -5, 'Minus', { kind: 'bonus' as const }],
    ['a reason too short to read', 5, 'x', {}],
    ['an expiry on a removal', -5, 'Minus', { kind: 'adjustment' as const, expiresInDays: 3 }],
    ['an expiry of 0 days', 5, 'Soon', { expiresInDays: 0 }],
  ])('refuses %s with validation_failed', async (_label, amount, reason, extra) => {
    const before = await ledgerOf(key);
    const error = await grant(key, amount, reason, extra).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('validation_failed');
    expect(await ledgerOf(key)).toEqual(before);
  });

  it('refuses a grant to an account that does not exist', async () => {
    const error = await t.container.credits.grant({ accountId: 'acc_nobody', amount: 5, reason: 'Lost' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as AppError).code).toBe('not_found');
  });
});

describe('expiry', () => {
  it('lists expiring credits, spends them first, expires what is left once, and reconciles', async () => {
    const key = await t.makeKey(['account:read']);
    const start = t.clock.now().getTime();
    await grant(key, 1_000, 'Credits that stay');
    await grant(key, 200, 'Trial credits', { expiresInDays: 3 });
    await grant(key, 300, 'Promotion credits', { expiresInDays: 10 });
    const threeDays = new Date(start + 3 * DAY).toISOString();
    const tenDays = new Date(start + 10 * DAY).toISOString();

    expect(await balanceOf(key)).toMatchObject({
      credits: 1_500,
      expiring: [
        { credits: 200, expiresAt: threeDays },
        { credits: 300, expiresAt: tenDays },
      ],
    });

    // Credits that can expire are spent soonest-expiring first (docs/credits.md).
    await grant(key, -50, 'Spend some', { kind: 'adjustment' });
    expect((await balanceOf(key)).expiring).toEqual([
      { credits: 150, expiresAt: threeDays },
      { credits: 300, expiresAt: tenDays },
    ]);

    // Not yet due: nothing expires.
    t.clock.set(new Date(start + 3 * DAY - 1));
    expect(await t.container.credits.expireDue()).toBe(0);
    expect((await balanceOf(key)).credits).toBe(1_450);

    t.clock.set(new Date(start + 3 * DAY + 60_000));
    expect(await t.container.credits.expireDue()).toBe(1);
    const after = await balanceOf(key);
    expect(after.credits).toBe(1_300);
    expect(after.expiring).toEqual([{ credits: 300, expiresAt: tenDays }]);

    const { rows } = await ledgerOf(key);
    const expiries = rows.filter((row) => row.kind === 'expiry');
    expect(expiries).toHaveLength(1);
    expect(expiries[0]).toMatchObject({ amount: -150, state: 'paid', at: t.clock.now().toISOString() });
    expect(expiries[0].title).toMatch(/150/);
    expect(rows[0].id).toBe(expiries[0].id);

    // Running the job again writes nothing.
    expect(await t.container.credits.expireDue()).toBe(0);
    expect((await ledgerOf(key)).rows.filter((row) => row.kind === 'expiry')).toHaveLength(1);
    expect((await balanceOf(key)).credits).toBe(1_300);

    // Everything since the start of the file adds up.
    expect(await t.container.credits.reconcile()).toEqual([]);

    // The balance equals the sum of the ledger (docs/credits.md).
    expect(rows.reduce((sum, row) => sum + row.amount, 0)).toBe(after.credits - after.reserved);
  });
});

describe('ledger pages', () => {
  it('120 rows come in pages of 50, 50 and 20, newest first, with no duplicates and a null cursor at the end', async () => {
    const key = await t.makeKey(['account:read']);
    for (let i = 1; i <= 120; i++) {
      await grant(key, i, `Grant number ${i}`);
      if (i % 7 === 0) t.clock.advance(1_000);
    }
    const pages: Json[][] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await ledgerOf(key, cursor);
      pages.push(page.rows);
      if (page.nextCursor === null) break;
      expect(typeof page.nextCursor).toBe('string');
      cursor = page.nextCursor;
      expect(pages.length).toBeLessThan(5);
    }
    expect(pages.map((p) => p.length)).toEqual([50, 50, 20]);
    const rows = pages.flat();
    expect(new Set(rows.map((r) => r.id)).size).toBe(120);
    // Newest first: grant 120 first, grant 1 last.
    expect(rows.map((r) => r.amount)).toEqual(Array.from({ length: 120 }, (_, i) => 120 - i));
    for (let i = 1; i < rows.length; i++) expect(rows[i - 1].at >= rows[i].at).toBe(true);

    // The same cursor gives the same page again (stable order).
    const second = await ledgerOf(key, (await ledgerOf(key)).nextCursor!);
    expect(second.rows).toEqual(pages[1]);
    expect((await balanceOf(key)).credits).toBe((120 * 121) / 2);
  });

  it('a cursor the API did not give out → 400 validation_failed', async () => {
    const key = await t.makeKey(['account:read']);
    for (let i = 0; i < 51; i++) await grant(key, 1, `Small grant ${i}`);
    const { nextCursor } = await ledgerOf(key);
    expect(nextCursor).not.toBeNull();
    const forged = [
      'not-a-cursor',
      nextCursor!.slice(1),
      Buffer.from('{"seq":10}').toString('base64url'),
      Buffer.from('["10"]').toString('base64url'),
      Buffer.from('[1.5]').toString('base64url'),
      Buffer.from('[10,1]').toString('base64url'),
      Buffer.from("1; DROP TABLE ledger_entries").toString('base64url'),
    ];
    for (const cursor of forged) {
      const response = await t.inject({ method: 'GET', url: `/v1/billing/ledger?cursor=${encodeURIComponent(cursor)}`, headers: key.auth });
      expect(response.statusCode, cursor).toBe(400);
      const { error } = response.json();
      expect(error.code).toBe('validation_failed');
      expect(error.details.validation).toEqual([expect.objectContaining({ field: 'cursor', code: 'invalid_format' })]);
    }
    const empty = await t.inject({ method: 'GET', url: '/v1/billing/ledger?cursor=', headers: key.auth });
    expect(empty.statusCode).toBe(400);
  });

  it('a cursor with characters appended → 400 (docs/api.md: pass it back unchanged; anything else is a 400)', async () => {
    const key = await t.makeKey(['account:read']);
    for (let i = 0; i < 51; i++) await grant(key, 1, `Small grant ${i}`);
    const { nextCursor } = await ledgerOf(key);
    for (const tampered of [`${nextCursor}!!`, `${nextCursor}.x`]) {
      const response = await t.inject({ method: 'GET', url: `/v1/billing/ledger?cursor=${encodeURIComponent(tampered)}`, headers: key.auth });
      expect(response.statusCode, `${tampered}: ${response.body.slice(0, 120)}`).toBe(400);
    }
  });

  it("only lists the caller's own rows", async () => {
    const mine = await t.makeKey(['account:read']);
    const theirs = await t.makeKey(['account:read']);
    await grant(theirs, 42, 'Not yours');
    expect((await ledgerOf(mine)).rows).toEqual([]);
    expect((await balanceOf(mine)).credits).toBe(0);
  });
});

describe('capRemaining', () => {
  it("is the key's daily cap, and null for a key without one", async () => {
    const capped = await t.makeKey(['account:read'], 2_500);
    expect((await balanceOf(capped)).capRemaining).toBe(2_500);
    const uncapped = await t.makeKey(['account:read'], null, { accountId: capped.accountId });
    expect((await balanceOf(uncapped)).capRemaining).toBeNull();
    const zero = await t.makeKey(['account:read'], 0, { accountId: capped.accountId });
    expect((await balanceOf(zero)).capRemaining).toBe(0);
  });

  it("does not depend on the account's credits", async () => {
    const capped = await t.makeKey(['account:read'], 100);
    await grant(capped, 5_000, 'Plenty');
    expect(await balanceOf(capped)).toMatchObject({ credits: 5_000, capRemaining: 100 });
  });
});

describe('ledger rows are immutable (R3.1)', () => {
  it('UPDATE and DELETE on ledger_entries fail and change nothing', async () => {
    const key = await t.makeKey(['account:read']);
    const { entry } = await grant(key, 300, 'Immutable grant');
    await expect(sql`UPDATE ledger_entries SET amount = 1000000 WHERE id = ${entry.id}`.execute(t.db)).rejects.toThrow(/immutable/);
    await expect(sql`UPDATE ledger_entries SET title = 'changed' WHERE account_id = ${key.accountId}`.execute(t.db)).rejects.toThrow(/immutable/);
    await expect(sql`DELETE FROM ledger_entries WHERE id = ${entry.id}`.execute(t.db)).rejects.toThrow(/immutable/);
    const { rows } = await ledgerOf(key);
    expect(rows).toEqual([expect.objectContaining({ id: entry.id, amount: 300, title: entry.title })]);
  });

  it('the balance cannot be made negative even by SQL', async () => {
    const key = await t.makeKey(['account:read']);
    await grant(key, 10, 'Small');
    await expect(sql`UPDATE balances SET available = -1 WHERE account_id = ${key.accountId}`.execute(t.db)).rejects.toThrow();
    expect((await balanceOf(key)).credits).toBe(10);
  });

  it('reconciles after everything in this file', async () => {
    expect(await t.container.credits.reconcile()).toEqual([]);
  });
});
