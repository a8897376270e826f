import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { signIn, type SignedInPerson } from '../helpers/people.ts';
import { answerAll, choiceDraft, expectReconciled, NO_RATE_LIMITS, seedHeads, type Head } from '../helpers/questions.ts';
import { testEvent, type TestAction } from '../../src/modules/billing/test-provider.ts';
import type { Checkout } from '../../src/modules/billing/billing.schemas.ts';

/**
 * Buying credits with the built-in test provider (issue 10 point 5; docs/payments.md; R8.4):
 * checkout is portal-session only; a paid checkout adds its pack's credits once (replays change
 * nothing), with their expiry and a credits.purchased event; a bank transfer is a pending row until
 * the money comes; refunds and disputes take credits back (only what is left), a won dispute
 * gives them back; overdue checkouts expire. Money always reconciles.
 */
let t: TestApp;
let heads: Head[];
beforeAll(async () => {
  t = await createTestApp({ env: NO_RATE_LIMITS });
  heads = await seedHeads(t, 20);
});
afterAll(async () => {
  await t?.close();
});

type Headers = Record<string, string>;
const eventId = () => `evt_test_${randomBytes(15).toString('base64url').replace(/[-_]/g, 'x').slice(0, 20)}`;
const fire = (action: TestAction, checkout: Checkout, id = eventId()) => t.container.paymentEvents.apply(testEvent(action, id, checkout));
const balance = async (headers: Headers) => (await t.inject({ url: '/v1/billing/balance', headers })).json();
const ledger = async (headers: Headers) => (await t.inject({ url: '/v1/billing/ledger', headers })).json().rows;
const checkoutNow = async (headers: Headers, id: string): Promise<Checkout> => (await t.inject({ url: `/v1/billing/checkouts/${id}`, headers })).json().checkout;

async function startCheckout(person: SignedInPerson, body: Record<string, unknown>, headers: Headers = person.auth): Promise<Checkout> {
  const response = await t.inject({ method: 'POST', url: '/v1/billing/checkout', headers, payload: body });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().checkout;
}

/** A person whose personal account is in GBP (their browser says en-GB). */
const gbpPerson = () => signIn(t, undefined, { headers: { 'accept-language': 'en-GB' } });

/** A person who bought the 1,000-credit pack and asked eight questions of 120 credits each (960 held). */
async function paidAndAsked(): Promise<{ person: SignedInPerson; checkout: Checkout; ids: string[] }> {
  const person = await gbpPerson();
  const checkout = await startCheckout(person, { pack: 'starter', currency: 'GBP', method: 'card' });
  await fire('pay', checkout);
  const ids: string[] = [];
  for (let i = 0; i < 8; i++) {
    const asked = await t.inject({ method: 'POST', url: '/v2/questions', headers: { ...person.auth, 'idempotency-key': eventId() }, payload: { draft: choiceDraft() } });
    expect(asked.statusCode, asked.body).toBe(201);
    ids.push(asked.json().question.id);
  }
  return { person, checkout, ids };
}

describe('who may check out', () => {
  it('an API key is refused with 403 insufficient_scope saying a portal session is needed; a session works', async () => {
    const key = await t.makeKey();
    const refused = await t.inject({ method: 'POST', url: '/v1/billing/checkout', headers: key.auth, payload: { pack: 'starter', currency: 'GBP', method: 'card' } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({ code: 'insufficient_scope', details: { credential: 'portal_session' } });
    expect(refused.json().error.message).toMatch(/portal session/);
    const person = await gbpPerson();
    const checkout = await startCheckout(person, { pack: 'standard', currency: 'GBP', method: 'card' });
    expect(checkout).toMatchObject({
      status: 'open', provider: 'test', method: 'card', pack: 'standard', credits: 5000, amount: 4750, currency: 'GBP', bankTransfer: null, paidAt: null,
      refundedAmount: 0, disputedAmount: 0, creditsTakenBack: 0,
      url: `${t.config.publicBaseUrl}/pay/test/${checkout.id}`,
      returnUrl: `${t.config.publicBaseUrl}/app/credits?checkout=${checkout.id}`,
    });
    expect(new Date(checkout.expiresAt).getTime() - new Date(checkout.createdAt).getTime()).toBe(3_600_000);
    // Nothing moved yet.
    expect(await balance(person.auth)).toMatchObject({ credits: 0 });
    expect(await ledger(person.auth)).toEqual([]);
  });

  it('refuses an unknown pack, another currency, a CAD bank transfer and a returnPath outside /app', async () => {
    const person = await gbpPerson();
    const post = (payload: object) => t.inject({ method: 'POST', url: '/v1/billing/checkout', headers: person.auth, payload });
    const fields = async (payload: object) => (await post(payload)).json().error.details.validation.map((v: { field: string; code: string }) => `${v.field}:${v.code}`);
    expect(await fields({ pack: 'huge', currency: 'GBP', method: 'card' })).toEqual(['pack:unknown_value']);
    expect(await fields({ pack: 'starter', currency: 'USD', method: 'card' })).toEqual(['currency:not_allowed']);
    expect((await post({ pack: 'starter', currency: 'GBP', method: 'card', returnPath: '/elsewhere' })).statusCode).toBe(400);
    expect((await post({ pack: 'starter', currency: 'GBP', method: 'card', returnPath: 'https://evil.example/app' })).statusCode).toBe(400);
    expect((await post({ pack: 'starter', currency: 'GBP', method: 'cash' })).statusCode).toBe(400);
    const canadian = await signIn(t, undefined, { headers: { 'accept-language': 'en-CA' } });
    const cad = await t.inject({ method: 'POST', url: '/v1/billing/checkout', headers: canadian.auth, payload: { pack: 'starter', currency: 'CAD', method: 'bank_transfer' } });
    expect(cad.json().error.details.validation).toEqual([expect.objectContaining({ field: 'method', code: 'not_allowed' })]);
    expect(await ledger(person.auth)).toEqual([]);
  });

  it('buys for the account the session acts for; another account\'s checkout id is 404', async () => {
    const owner = await gbpPerson();
    const team = (await t.inject({ method: 'POST', url: '/v1/teams', headers: owner.auth, payload: { name: 'Buyers', currency: 'EUR' } })).json().account.accountId;
    const checkout = await startCheckout(owner, { pack: 'starter', currency: 'EUR', method: 'card', returnPath: '/app/team' }, owner.as(team));
    expect(checkout).toMatchObject({ accountId: team, amount: 1000, currency: 'EUR', returnUrl: `${t.config.publicBaseUrl}/app/team?checkout=${checkout.id}` });
    await fire('pay', checkout);
    expect(await balance(owner.as(team))).toMatchObject({ credits: 1000, currency: 'EUR' });
    expect(await balance(owner.auth)).toMatchObject({ credits: 0 });
    const stranger = await gbpPerson();
    expect((await t.inject({ url: `/v1/billing/checkouts/${checkout.id}`, headers: stranger.auth })).statusCode).toBe(404);
    expect((await t.inject({ url: `/v1/billing/checkouts/${checkout.id}`, headers: owner.as(team) })).json().checkout.status).toBe('paid');
  });
});

describe('a card payment', () => {
  it('adds the pack once, valid for a year, with a purchase row and a credits.purchased event; replays change nothing', async () => {
    const person = await gbpPerson();
    const checkout = await startCheckout(person, { pack: 'standard', currency: 'GBP', method: 'card' });
    const paid = eventId();
    expect(await fire('pay', checkout, paid)).toBe('applied');
    expect(await fire('pay', checkout, paid)).toBe('duplicate');
    expect(await fire('pay', checkout)).toBe('unchanged'); // another "paid" event for the same checkout
    expect(await fire('decline', checkout)).toBe('unchanged'); // a late decline does not undo a payment

    const now = t.clock.now().getTime();
    expect(await balance(person.auth)).toMatchObject({ credits: 5000, expiring: [{ credits: 5000, expiresAt: new Date(now + 365 * 86_400_000).toISOString() }] });
    expect(await ledger(person.auth)).toEqual([
      expect.objectContaining({ kind: 'purchase', state: 'available', amount: 5000, ref: checkout.id, title: 'Standard pack: 5,000 credits (£47.50 by card)' }),
    ]);
    const events = await t.db.selectFrom('outbox_events').select(['type', 'payload']).where('account_id', '=', person.personalAccountId).execute();
    expect(events).toHaveLength(1);
    expect(events[0].type).toBe('credits.purchased');
    expect(events[0].payload).toMatchObject({ type: 'credits.purchased', data: { checkout: { id: checkout.id, status: 'paid', credits: 5000 } } });
    await expectReconciled(t);

    // The credits buy questions.
    const asked = await t.inject({ method: 'POST', url: '/v2/questions', headers: { ...person.auth, 'idempotency-key': eventId() }, payload: { draft: choiceDraft() } });
    expect(asked.statusCode, asked.body).toBe(201);
    expect(await balance(person.auth)).toMatchObject({ credits: 5000, reserved: 120 });
  });

  it('a declined card fails the checkout and moves nothing', async () => {
    const person = await gbpPerson();
    const checkout = await startCheckout(person, { pack: 'starter', currency: 'GBP', method: 'card' });
    expect(await fire('decline', checkout)).toBe('applied');
    expect((await t.inject({ url: `/v1/billing/checkouts/${checkout.id}`, headers: person.auth })).json().checkout.status).toBe('failed');
    expect(await ledger(person.auth)).toEqual([]);
  });

  it('a payment confirmed after the checkout expired still adds its credits (the money came)', async () => {
    const person = await gbpPerson();
    const checkout = await startCheckout(person, { pack: 'starter', currency: 'GBP', method: 'card' });
    t.clock.advance(3_600_000 + 1000);
    expect(await t.container.paymentEvents.expireOverdue()).toBeGreaterThanOrEqual(1);
    expect((await t.inject({ url: `/v1/billing/checkouts/${checkout.id}`, headers: person.auth })).json().checkout.status).toBe('expired');
    expect(await fire('pay', checkout)).toBe('applied');
    expect(await balance(person.auth)).toMatchObject({ credits: 1000 });
  });
});

describe('a bank transfer', () => {
  it('gives payee details and a reference, is a pending row until the money comes, then the credits are in', async () => {
    const person = await gbpPerson();
    const checkout = await startCheckout(person, { pack: 'studio', currency: 'GBP', method: 'bank_transfer' });
    expect(checkout.status).toBe('pending');
    expect(checkout.bankTransfer).toMatchObject({ payee: expect.stringMatching(/test/i), sortCode: '00-00-00', accountNumber: '00000000', amount: 18000, currency: 'GBP', reference: expect.stringMatching(/^HC-/) });
    expect(new Date(checkout.expiresAt).getTime() - new Date(checkout.createdAt).getTime()).toBe(7 * 86_400_000);
    const [pending] = await ledger(person.auth);
    expect(pending).toMatchObject({ kind: 'purchase', state: 'pending', amount: 20000 });
    expect(pending.title).toContain(checkout.bankTransfer!.reference);
    expect(await balance(person.auth)).toMatchObject({ credits: 0 });
    await expectReconciled(t);

    expect(await fire('funds_received', checkout)).toBe('applied');
    const [settled] = await ledger(person.auth);
    expect(settled).toMatchObject({ id: pending.id, state: 'available', amount: 20000, title: pending.title });
    expect(await balance(person.auth)).toMatchObject({ credits: 20000 });
    await expectReconciled(t);
  });

  it('a transfer that fails, or never comes within seven days, is reversed; money that comes later is still credited', async () => {
    let person = await gbpPerson();
    const failing = await startCheckout(person, { pack: 'starter', currency: 'GBP', method: 'bank_transfer' });
    await fire('transfer_failed', failing);
    expect((await ledger(person.auth))[0]).toMatchObject({ state: 'reversed', amount: 1000 });

    const slow = await startCheckout(person, { pack: 'starter', currency: 'GBP', method: 'bank_transfer' });
    t.clock.advance(7 * 86_400_000 + 1000);
    await t.container.paymentEvents.expireOverdue();
    person = await signIn(t, person.email); // a week unused ended the session
    expect((await t.inject({ url: `/v1/billing/checkouts/${slow.id}`, headers: person.auth })).json().checkout.status).toBe('expired');
    expect((await ledger(person.auth))[0]).toMatchObject({ ref: slow.id, state: 'reversed' });
    expect(await balance(person.auth)).toMatchObject({ credits: 0 });

    await fire('funds_received', slow);
    expect(await balance(person.auth)).toMatchObject({ credits: 1000 });
    expect((await ledger(person.auth))[0]).toMatchObject({ ref: slow.id, kind: 'purchase', state: 'available', amount: 1000 });
    await expectReconciled(t);
  });

  it('the ledger lets a pending row settle once and nothing else change', async () => {
    const person = await gbpPerson();
    const checkout = await startCheckout(person, { pack: 'starter', currency: 'GBP', method: 'bank_transfer' });
    const [row] = await ledger(person.auth);
    await expect(sql`UPDATE ledger_entries SET amount = 99999 WHERE id = ${row.id}`.execute(t.db)).rejects.toThrow(/immutable/);
    await expect(sql`UPDATE ledger_entries SET state = 'available', title = 'changed' WHERE id = ${row.id}`.execute(t.db)).rejects.toThrow(/immutable/);
    await fire('funds_received', checkout);
    await expect(sql`UPDATE ledger_entries SET state = 'pending' WHERE id = ${row.id}`.execute(t.db)).rejects.toThrow(/immutable/);
    await expect(sql`UPDATE ledger_entries SET state = 'reversed' WHERE id = ${row.id}`.execute(t.db)).rejects.toThrow(/immutable/);
  });
});

describe('refunds and disputes', () => {
  it('a refund takes the credits back once; credits already spent cannot come back and the row says so', async () => {
    const person = await gbpPerson();
    const checkout = await startCheckout(person, { pack: 'starter', currency: 'GBP', method: 'card' });
    await fire('pay', checkout);
    // Spend 120 of the 1,000 on a question.
    const asked = await t.inject({ method: 'POST', url: '/v2/questions', headers: { ...person.auth, 'idempotency-key': eventId() }, payload: { draft: choiceDraft() } });
    expect(asked.statusCode).toBe(201);
    const refund = eventId();
    expect(await fire('refund', checkout, refund)).toBe('applied');
    expect(await fire('refund', checkout, refund)).toBe('duplicate');
    expect(await fire('refund', checkout)).toBe('unchanged'); // the same total refunded again
    const [clawback] = await ledger(person.auth);
    expect(clawback).toMatchObject({ kind: 'clawback', state: 'paid', amount: -880, ref: checkout.id });
    expect(clawback.title).toMatch(/Refund of £10\.00: 880 credits .* taken back \(120 more, held by open questions, will be taken back as they come back\)/);
    expect(await balance(person.auth)).toMatchObject({ credits: 120, reserved: 120 });
    // The checkout stays paid and says what was refunded and taken back.
    expect(await checkoutNow(person.auth, checkout.id)).toMatchObject({ status: 'paid', refundedAmount: checkout.amount, disputedAmount: 0, creditsTakenBack: 880 });
    // The portal's list of recent checkouts says it beside "Paid".
    const page = await t.app.inject({ url: '/app/credits', headers: { cookie: `hc_session=${person.token}` } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<span class="status-pill">Paid</span> <span class="status-pill">Refunded £10.00</span>');
    await expectReconciled(t);
  });

  it('credits questions held when the payment was refunded are taken as they come back, not made spendable again', async () => {
    const { person, checkout, ids } = await paidAndAsked();
    // Two answers are spent on the first question: those 24 credits are gone for good.
    await answerAll(t, ids[0], heads.slice(0, 2));
    expect(await balance(person.auth)).toMatchObject({ credits: 976, reserved: 936 });
    expect(await fire('refund', checkout)).toBe('applied');
    const [clawback] = await ledger(person.auth);
    expect(clawback).toMatchObject({ kind: 'clawback', amount: -40, ref: checkout.id });
    expect(clawback.title).toContain('(936 more, held by open questions, will be taken back as they come back; 24 more had already been spent)');
    expect(await balance(person.auth)).toMatchObject({ credits: 936, reserved: 936 });

    for (const id of ids) expect((await t.inject({ method: 'POST', url: `/v2/questions/${id}/cancel`, headers: person.auth })).statusCode).toBe(200);
    // Every credit that came back went to the refunded payment: nothing is left to spend.
    expect(await balance(person.auth)).toMatchObject({ credits: 0, reserved: 0 });
    const rows = await ledger(person.auth);
    const owed = rows.filter((r: { kind: string; title: string }) => r.kind === 'clawback' && r.title.startsWith('Refunded payment'));
    expect(owed).toHaveLength(8);
    expect(owed.every((r: { ref: string }) => r.ref === checkout.id)).toBe(true);
    expect(owed.reduce((sum: number, r: { amount: number }) => sum + r.amount, 0)).toBe(-936);
    const refused = await t.inject({ method: 'POST', url: '/v2/questions', headers: { ...person.auth, 'idempotency-key': eventId() }, payload: { draft: choiceDraft() } });
    expect(refused.statusCode).toBe(402);
    // All the payment's credits but the 24 spent were taken back; the same refund again takes nothing more.
    const taken = rows.filter((r: { kind: string; ref: string }) => r.kind === 'clawback' && r.ref === checkout.id).reduce((sum: number, r: { amount: number }) => sum + r.amount, 0);
    expect(taken).toBe(-976);
    expect(await checkoutNow(person.auth, checkout.id)).toMatchObject({ refundedAmount: checkout.amount, creditsTakenBack: 976 });
    expect(await fire('refund', checkout)).toBe('unchanged');
    expect((await ledger(person.auth)).length).toBe(rows.length);
    await expectReconciled(t);
  });

  it('a dispute won after held credits came back gives back all that was taken, and forgets what is still owed', async () => {
    const { person, checkout, ids } = await paidAndAsked();
    await fire('dispute', checkout);
    expect(await balance(person.auth)).toMatchObject({ credits: 960, reserved: 960 });
    // Half the questions are cancelled while the dispute is open: their 480 credits go to it.
    for (const id of ids.slice(0, 4)) await t.inject({ method: 'POST', url: `/v2/questions/${id}/cancel`, headers: person.auth });
    expect(await balance(person.auth)).toMatchObject({ credits: 480, reserved: 480 });
    await fire('dispute_won', checkout);
    // 40 + 480 taken come back; the 480 still held are no longer owed.
    expect(await balance(person.auth)).toMatchObject({ credits: 1000, reserved: 480 });
    for (const id of ids.slice(4)) await t.inject({ method: 'POST', url: `/v2/questions/${id}/cancel`, headers: person.auth });
    expect(await balance(person.auth)).toMatchObject({ credits: 1000, reserved: 0 });
    expect(await t.db.selectFrom('checkouts').select(['clawed_back', 'clawback_shortfall']).where('id', '=', checkout.id).executeTakeFirstOrThrow()).toEqual({ clawed_back: 0, clawback_shortfall: 0 });
    await expectReconciled(t);
  });

  it('a dispute takes the credits back; winning it gives them back', async () => {
    const person = await gbpPerson();
    const checkout = await startCheckout(person, { pack: 'standard', currency: 'GBP', method: 'card' });
    await fire('pay', checkout);
    await fire('dispute', checkout);
    expect(await balance(person.auth)).toMatchObject({ credits: 0 });
    expect(await checkoutNow(person.auth, checkout.id)).toMatchObject({ status: 'paid', refundedAmount: 0, disputedAmount: checkout.amount, creditsTakenBack: 5000 });
    await fire('dispute_won', checkout);
    expect(await balance(person.auth)).toMatchObject({ credits: 5000 });
    expect(await checkoutNow(person.auth, checkout.id)).toMatchObject({ status: 'paid', refundedAmount: 0, disputedAmount: 0, creditsTakenBack: 0 });
    const rows = await ledger(person.auth);
    expect(rows.map((r: { kind: string; amount: number }) => [r.kind, r.amount])).toEqual([['adjustment', 5000], ['clawback', -5000], ['purchase', 5000]]);
    await expectReconciled(t);
  });

  it('a refund reported before its payment is refused with 409 so the provider sends it again; then it applies', async () => {
    const person = await gbpPerson();
    const checkout = await startCheckout(person, { pack: 'starter', currency: 'GBP', method: 'card' });
    const early = eventId();
    await expect(fire('refund', checkout, early)).rejects.toMatchObject({ code: 'conflict', details: { reason: 'not_ready' } });
    expect(await ledger(person.auth)).toEqual([]);
    await fire('pay', checkout);
    expect(await fire('refund', checkout, early)).toBe('applied');
    expect(await balance(person.auth)).toMatchObject({ credits: 0 });
    await expectReconciled(t);
  });
});

describe('the test provider\'s page', () => {
  it('shows the payment, and paying sends the person back to the portal; sending the form twice pays once', async () => {
    const person = await gbpPerson();
    const checkout = await startCheckout(person, { pack: 'starter', currency: 'GBP', method: 'card' });
    const page = await t.app.inject({ url: `/pay/test/${checkout.id}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('no money moves');
    expect(page.body).toContain('Pay £10.00');
    const form = /name="action" value="pay">\s*<input type="hidden" name="event" value="([^"]+)"/.exec(page.body);
    expect(form).not.toBeNull();
    const submit = () => t.app.inject({ method: 'POST', url: `/pay/test/${checkout.id}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `action=pay&event=${form![1]}` });
    const first = await submit();
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe(`/app/credits?checkout=${checkout.id}`);
    expect((await submit()).statusCode).toBe(303);
    expect(await balance(person.auth)).toMatchObject({ credits: 1000 });
    expect((await ledger(person.auth)).length).toBe(1);

    expect((await t.app.inject({ url: '/pay/test/chk_00000000000000000000' })).statusCode).toBe(404);
    const bad = await t.app.inject({ method: 'POST', url: `/pay/test/${checkout.id}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'action=steal&event=x' });
    expect(bad.statusCode).toBe(400);
    // A JSON body is no button of the page either (it was a 500: the form's reader on an object).
    const json = await t.app.inject({ method: 'POST', url: `/pay/test/${checkout.id}`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ action: 'refund', event: 'evt_test_AAAAAAAAAAAAAAAAAAAA' }) });
    expect(json.statusCode).toBe(400);
    expect(json.body).toContain('not one of this page');
    expect(await balance(person.auth)).toMatchObject({ credits: 1000 });
  });

  it("refuses another site's form: no refund or dispute through a visitor's browser", async () => {
    const person = await gbpPerson();
    const checkout = await startCheckout(person, { pack: 'starter', currency: 'GBP', method: 'card' });
    const post = (action: string, headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: `/pay/test/${checkout.id}`, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload: `action=${action}&event=evt_test_${action.padEnd(20, 'A').slice(0, 20)}` });
    expect((await post('pay', { origin: new URL(t.config.publicBaseUrl).origin, 'sec-fetch-site': 'same-origin' })).statusCode).toBe(303);
    expect(await balance(person.auth)).toMatchObject({ credits: 1000 });
    const foreign: Array<Record<string, string>> = [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site', origin: 'null' }];
    for (const headers of foreign) {
      const refused = await post('dispute', headers);
      expect(refused.statusCode, JSON.stringify(headers)).toBe(403);
      expect(refused.body).toContain('another site');
    }
    expect(await balance(person.auth)).toMatchObject({ credits: 1000 });
    expect((await ledger(person.auth)).length).toBe(1);
  });
});
