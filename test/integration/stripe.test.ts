import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { signIn, type SignedInPerson } from '../helpers/people.ts';
import { expectReconciled, NO_RATE_LIMITS } from '../helpers/questions.ts';
import { call, listen, type Reply } from '../helpers/real-http.ts';
import {
  eventPayload,
  parseStripeForm,
  signedHeader,
  startStripeStandIn,
  testSecretKey,
  testWebhookSecret,
  type Json,
  type StripeStandIn,
} from '../helpers/stripe-stand-in.ts';
import type { Checkout } from '../../src/modules/billing/billing.schemas.ts';

/**
 * The Stripe adapter end to end (docs/payments.md "Stripe"; R8.4): the official SDK talks to a
 * local stand-in of Stripe's API over HTTP, and events reach our webhook over HTTP with real
 * Stripe signatures, checked against the app's clock. What is asserted is what a person (their
 * balance, ledger and checkout) or Stripe (what it was asked for, what our webhook answered) sees.
 */
const SECRET_KEY = testSecretKey();
const WEBHOOK_SECRET = testWebhookSecret();
const WEBHOOK = '/v1/billing/webhooks/stripe';
const DAY_MS = 86_400_000;

let stripe: StripeStandIn;
let t: TestApp;
let base: string;

beforeAll(async () => {
  // The stand-in first: the app's Stripe client is made with its address.
  stripe = await startStripeStandIn({ secretKey: SECRET_KEY });
  t = await createTestApp({
    env: { PAYMENTS_PROVIDER: 'stripe', STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: stripe.url, ...NO_RATE_LIMITS },
  });
  stripe.clock = t.clock;
  base = await listen(t.app);
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

type Headers = Record<string, string>;

const nowSeconds = () => Math.floor(t.clock.now().getTime() / 1000);

const balance = async (headers: Headers) => (await t.inject({ url: '/v1/billing/balance', headers })).json();
const ledger = async (headers: Headers): Promise<Json[]> => (await t.inject({ url: '/v1/billing/ledger', headers })).json().rows;
const movements = async (headers: Headers) => (await ledger(headers)).map((row) => [row.kind, row.state, row.amount]);

async function checkoutOf(person: SignedInPerson, id: string): Promise<Checkout> {
  const response = await t.inject({ url: `/v1/billing/checkouts/${id}`, headers: person.auth });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().checkout;
}

async function startCheckout(person: SignedInPerson, body: Record<string, unknown>): Promise<Checkout> {
  const response = await t.inject({ method: 'POST', url: '/v1/billing/checkout', headers: person.auth, payload: body });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().checkout;
}

/** A person whose personal account is in GBP (their browser says en-GB). */
const gbpPerson = () => signIn(t, undefined, { headers: { 'accept-language': 'en-GB' } });

interface Delivery {
  /** Sign with this secret instead of the endpoint's. */
  secret?: string;
  /** The signature's time (seconds); now by the app's clock unless given. */
  timestamp?: number;
  /** Send these bytes instead of the ones signed. */
  body?: string;
  /** Send no Stripe-Signature header. */
  unsigned?: boolean;
}

/** Posts an event to our webhook as Stripe does: over HTTP, its exact bytes, with a Stripe-Signature made at delivery. */
function deliver(event: Json, how: Delivery = {}): Promise<Reply> {
  const payload = eventPayload(event);
  const headers: Headers = { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' };
  if (!how.unsigned) headers['stripe-signature'] = signedHeader(payload, how.secret ?? WEBHOOK_SECRET, how.timestamp ?? nowSeconds());
  return call(base, WEBHOOK, { method: 'POST', headers, body: how.body ?? payload });
}

/** Delivers an event that must be accepted (2xx, so Stripe stops sending it); what our webhook says it did. */
async function accepted(event: Json): Promise<string> {
  const reply = await deliver(event);
  expect(reply.status, reply.body).toBe(200);
  return JSON.parse(reply.body).outcome;
}

/** Whether our side holds any record of this event (applied or ignored). */
const recorded = async (eventId: string) => (await t.db.selectFrom('payment_events').select('event_id').where('event_id', '=', eventId).execute()).length > 0;

/** A card checkout the person has paid for on the Checkout page, its completion delivered. */
async function paidCardCheckout(person: SignedInPerson, pack = 'standard') {
  const checkout = await startCheckout(person, { pack, currency: 'GBP', method: 'card' });
  const paid = stripe.payCheckoutSession(stripe.sessionFor(checkout.id).id);
  expect(await accepted(stripe.event('checkout.session.completed', paid.session))).toBe('applied');
  return { checkout, ...paid };
}

describe('the stand-in', () => {
  // The suite's other assertions lean on it behaving as Stripe does; the official SDK checks that here.
  const client = (key: string) => {
    const { port } = new URL(stripe.url);
    return new Stripe(key, { host: '127.0.0.1', port: Number(port), protocol: 'http', maxNetworkRetries: 0, telemetry: false });
  };

  it('reads Stripe\'s bracket notation into nested objects and arrays', () => {
    expect(parseStripeForm('line_items[0][price_data][unit_amount]=4750&line_items[0][quantity]=1&metadata[checkout_id]=chk_1&allowed_payment_method_types[0]=card&allowed_payment_method_types[1]=link&description=Pack+of%20credits%26more&payment_intent=')).toEqual({
      line_items: [{ price_data: { unit_amount: '4750' }, quantity: '1' }],
      metadata: { checkout_id: 'chk_1' },
      allowed_payment_method_types: ['card', 'link'],
      description: 'Pack of credits&more',
      payment_intent: '',
    });
  });

  it('refuses a wrong key with 401, replays an Idempotency-Key\'s first answer, and refuses the key with other parameters', async () => {
    await expect(client('sk_test_notthekey0000').customers.create({ email: 'a@example.org' })).rejects.toMatchObject({ type: 'StripeAuthenticationError', statusCode: 401 });
    const sdk = client(SECRET_KEY);
    const first = await sdk.customers.create({ email: 'b@example.org' }, { idempotencyKey: 'stand-in-check' });
    const again = await sdk.customers.create({ email: 'b@example.org' }, { idempotencyKey: 'stand-in-check' });
    expect(again.id).toBe(first.id);
    expect(stripe.requestsTo('POST', '/v1/customers').filter((r) => r.idempotencyKey === 'stand-in-check').map((r) => r.replayed)).toEqual([false, true]);
    await expect(sdk.customers.create({ email: 'c@example.org' }, { idempotencyKey: 'stand-in-check' })).rejects.toMatchObject({ type: 'StripeIdempotencyError', statusCode: 400 });
  });
});

describe('a card checkout', () => {
  it('makes a Checkout Session with the pack\'s price, our checkout id and an Idempotency-Key, and sends the person to its url', async () => {
    const person = await gbpPerson();
    const checkout = await startCheckout(person, { pack: 'standard', currency: 'GBP', method: 'card' });

    const sent = stripe.requestsTo('POST', '/v1/checkout/sessions').filter((r) => r.body.client_reference_id === checkout.id);
    expect(sent).toHaveLength(1);
    const metadata = { checkout_id: checkout.id, account_id: person.personalAccountId };
    expect(sent[0].body).toEqual({
      mode: 'payment',
      client_reference_id: checkout.id,
      customer_email: person.email,
      line_items: [{ quantity: '1', price_data: { currency: 'gbp', unit_amount: '4750', product_data: { name: 'Standard pack: 5,000 Headcount credits' } } }],
      allowed_payment_method_types: ['card'],
      metadata,
      payment_intent_data: { metadata },
      success_url: checkout.returnUrl,
      cancel_url: checkout.returnUrl,
      expires_at: String(Date.parse(checkout.expiresAt) / 1000),
    });
    // Stable per checkout, so the SDK's retry of a lost answer makes no second session.
    expect(sent[0].idempotencyKey).toContain(checkout.id);
    expect(sent[0].answered).toBe(200);

    const session = stripe.sessionFor(checkout.id);
    expect(session.url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    expect(checkout).toMatchObject({ provider: 'stripe', method: 'card', status: 'open', url: session.url, bankTransfer: null, amount: 4750, currency: 'GBP' });
    expect(await ledger(person.auth)).toEqual([]);
  });

  it('checkout.session.completed adds the pack once; the same event delivered again (a replay) is acknowledged and changes nothing', async () => {
    const person = await gbpPerson();
    const checkout = await startCheckout(person, { pack: 'standard', currency: 'GBP', method: 'card' });
    const { session } = stripe.payCheckoutSession(stripe.sessionFor(checkout.id).id);
    const completed = stripe.event('checkout.session.completed', session);

    expect(await accepted(completed)).toBe('applied');
    const paidAt = t.clock.now().toISOString();
    expect(await checkoutOf(person, checkout.id)).toMatchObject({ status: 'paid', paidAt });
    expect(await balance(person.auth)).toMatchObject({ credits: 5000 });

    t.clock.advance(60_000); // Stripe delivers it again a minute later (its answer to us was lost)
    expect(await accepted(completed)).toBe('duplicate');
    // Another report of the same payment (a different event) adds nothing either.
    expect(await accepted(stripe.event('checkout.session.async_payment_succeeded', session))).toBe('unchanged');

    expect(await checkoutOf(person, checkout.id)).toMatchObject({ status: 'paid', paidAt });
    expect(await balance(person.auth)).toMatchObject({ credits: 5000 });
    expect(await movements(person.auth)).toEqual([['purchase', 'available', 5000]]);
    expect((await ledger(person.auth))[0].title).toBe('Standard pack: 5,000 credits (£47.50 by card)');
    await expectReconciled(t);
  });

  it('out of order: payment_intent.succeeded before checkout.session.completed credits once; a later "unpaid" completion neither downgrades nor adds', async () => {
    const person = await gbpPerson();
    const checkout = await startCheckout(person, { pack: 'standard', currency: 'GBP', method: 'card' });
    const { session, paymentIntent } = stripe.payCheckoutSession(stripe.sessionFor(checkout.id).id);
    // The PaymentIntent carries our checkout id (payment_intent_data.metadata): it alone finds the checkout.
    expect(paymentIntent.metadata).toEqual({ checkout_id: checkout.id, account_id: person.personalAccountId });

    expect(await accepted(stripe.event('payment_intent.succeeded', paymentIntent))).toBe('applied');
    expect(await checkoutOf(person, checkout.id)).toMatchObject({ status: 'paid' });

    expect(await accepted(stripe.event('checkout.session.completed', { ...session, payment_status: 'unpaid' }))).toBe('unchanged');
    expect(await accepted(stripe.event('checkout.session.completed', session))).toBe('unchanged');

    expect(await checkoutOf(person, checkout.id)).toMatchObject({ status: 'paid' });
    expect(await movements(person.auth)).toEqual([['purchase', 'available', 5000]]);
    expect(await balance(person.auth)).toMatchObject({ credits: 5000 });
    await expectReconciled(t);
  });

  it('a completion still "unpaid" (the money is on its way) is a pending row without credits; checkout.session.async_payment_succeeded then adds them', async () => {
    const person = await gbpPerson();
    const checkout = await startCheckout(person, { pack: 'starter', currency: 'GBP', method: 'card' });
    const sessionId = stripe.sessionFor(checkout.id).id;
    const { session: unpaid } = stripe.payCheckoutSession(sessionId, { async: true });
    expect(unpaid).toMatchObject({ status: 'complete', payment_status: 'unpaid' });

    expect(await accepted(stripe.event('checkout.session.completed', unpaid))).toBe('applied');
    expect(await checkoutOf(person, checkout.id)).toMatchObject({ status: 'pending', paidAt: null });
    expect(await movements(person.auth)).toEqual([['purchase', 'pending', 1000]]);
    expect(await balance(person.auth)).toMatchObject({ credits: 0 });

    const { session: paid } = stripe.settleCheckoutSession(sessionId);
    expect(await accepted(stripe.event('checkout.session.async_payment_succeeded', paid))).toBe('applied');
    expect(await checkoutOf(person, checkout.id)).toMatchObject({ status: 'paid' });
    expect(await movements(person.auth)).toEqual([['purchase', 'available', 1000]]);
    expect(await balance(person.auth)).toMatchObject({ credits: 1000 });
    await expectReconciled(t);
  });

  it('checkout.session.expired ends the checkout as expired and moves nothing', async () => {
    const person = await gbpPerson();
    const checkout = await startCheckout(person, { pack: 'starter', currency: 'GBP', method: 'card' });
    const expired = stripe.expireCheckoutSession(stripe.sessionFor(checkout.id).id);
    expect(await accepted(stripe.event('checkout.session.expired', expired))).toBe('applied');
    expect(await checkoutOf(person, checkout.id)).toMatchObject({ status: 'expired', paidAt: null });
    expect(await ledger(person.auth)).toEqual([]);
  });
});

describe('signatures', () => {
  it('a wrong secret, one byte changed, no header, or a signature over 5 minutes old: 400 in our envelope and nothing changes', async () => {
    const person = await gbpPerson();
    const checkout = await startCheckout(person, { pack: 'standard', currency: 'GBP', method: 'card' });
    const { session } = stripe.payCheckoutSession(stripe.sessionFor(checkout.id).id);
    const event = stripe.event('checkout.session.completed', session);
    const payload = eventPayload(event);
    // "paid" → "qaid": still JSON, so only the signature can refuse it.
    const at = payload.indexOf('"paid"') + 1;
    const tampered = payload.slice(0, at) + String.fromCharCode(payload.charCodeAt(at) ^ 1) + payload.slice(at + 1);
    expect(JSON.parse(tampered).data.object.payment_status).toBe('qaid');

    const refusals: Array<[string, Reply]> = [
      ['a wrong secret', await deliver(event, { secret: testWebhookSecret() })],
      ['one byte changed', await deliver(event, { body: tampered })],
      ['no Stripe-Signature header', await deliver(event, { unsigned: true })],
      ['signed 5 minutes and 1 second ago', await deliver(event, { timestamp: nowSeconds() - 301 })],
      ['signed an hour ahead of our clock', await deliver(event, { timestamp: nowSeconds() + 3600 })],
    ];
    for (const [why, reply] of refusals) {
      expect(reply.status, `${why}: ${reply.body}`).toBe(400);
      expect(reply.headers['content-type'], why).toMatch(/^application\/json/);
      expect(JSON.parse(reply.body), why).toMatchObject({
        error: { code: 'validation_failed', message: expect.stringMatching(/Stripe-Signature/), details: { validation: [{ field: 'stripe-signature', code: 'invalid_format' }] } },
      });
    }
    expect(await recorded(event.id)).toBe(false);
    expect(await checkoutOf(person, checkout.id)).toMatchObject({ status: 'open' });
    expect(await balance(person.auth)).toMatchObject({ credits: 0 });
    expect(await ledger(person.auth)).toEqual([]);

    // The event itself was fine: the same bytes signed four minutes ago (a slow delivery) are applied.
    const slow = await deliver(event, { timestamp: nowSeconds() - 240 });
    expect(slow.status, slow.body).toBe(200);
    expect(JSON.parse(slow.body).outcome).toBe('applied');
    expect(await balance(person.auth)).toMatchObject({ credits: 5000 });
    expect(await movements(person.auth)).toEqual([['purchase', 'available', 5000]]);
  });

  it('a payment of another amount or currency than its checkout credits nothing: 409, and the checkout stays open', async () => {
    const person = await gbpPerson();
    const checkout = await startCheckout(person, { pack: 'standard', currency: 'GBP', method: 'card' });
    const { session } = stripe.payCheckoutSession(stripe.sessionFor(checkout.id).id);
    for (const wrong of [{ amount_total: 1 }, { currency: 'usd' }]) {
      const reply = await deliver(stripe.event('checkout.session.completed', { ...session, ...wrong }));
      expect(reply.status, reply.body).toBe(409);
      expect(JSON.parse(reply.body).error).toMatchObject({ code: 'conflict', details: { reason: 'amount_mismatch' } });
    }
    expect(await checkoutOf(person, checkout.id)).toMatchObject({ status: 'open' });
    expect(await balance(person.auth)).toMatchObject({ credits: 0 });
    // The real payment still applies.
    expect(await accepted(stripe.event('checkout.session.completed', session))).toBe('applied');
    expect(await balance(person.auth)).toMatchObject({ credits: 5000 });
  });

  it('a captured delivery sent again after 5 minutes is refused, even for an event never applied', async () => {
    const person = await gbpPerson();
    const checkout = await startCheckout(person, { pack: 'starter', currency: 'GBP', method: 'card' });
    const { session } = stripe.payCheckoutSession(stripe.sessionFor(checkout.id).id);
    const event = stripe.event('checkout.session.completed', session);
    const payload = eventPayload(event);
    const captured = signedHeader(payload, WEBHOOK_SECRET, nowSeconds());
    t.clock.advance(6 * 60_000);
    const replayed = await call(base, WEBHOOK, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': captured }, body: payload });
    expect(replayed.status, replayed.body).toBe(400);
    expect(JSON.parse(replayed.body).error.message).toMatch(/tolerance/);
    expect(await recorded(event.id)).toBe(false);
    expect(await balance(person.auth)).toMatchObject({ credits: 0 });
  });
});

describe('a bank transfer', () => {
  /** What a person is told to pay into, from the financial address Stripe gave, by currency. */
  const payeeFrom = (instructions: Json) => {
    const [first] = instructions.financial_addresses;
    switch (first.type) {
      case 'sort_code':
        return { payee: first.sort_code.account_holder_name, sortCode: first.sort_code.sort_code, accountNumber: first.sort_code.account_number };
      case 'iban':
        return { payee: first.iban.account_holder_name, iban: first.iban.iban, bic: first.iban.bic };
      default:
        return { payee: first.aba.account_holder_name, routingNumber: first.aba.routing_number, accountNumber: first.aba.account_number, bankName: first.aba.bank_name };
    }
  };

  it.each([
    { language: 'en-GB', currency: 'GBP', network: 'gb_bank_transfer', address: 'sort_code' },
    { language: 'de-DE', currency: 'EUR', network: 'eu_bank_transfer', address: 'iban' },
    { language: 'en-US', currency: 'USD', network: 'us_bank_transfer', address: 'aba' },
  ])('in $currency: one Stripe customer per account, a $network PaymentIntent, its payee details and reference, pending until paid', async ({ language, currency, network, address }) => {
    const person = await signIn(t, undefined, { headers: { 'accept-language': language } });
    const first = await startCheckout(person, { pack: 'starter', currency, method: 'bank_transfer' });
    const second = await startCheckout(person, { pack: 'standard', currency, method: 'bank_transfer' });

    // One customer for the account, made on the first checkout and named on the second.
    const customersMade = stripe.requestsTo('POST', '/v1/customers').filter((r) => r.body.metadata?.account_id === person.personalAccountId);
    expect(customersMade.map((r) => r.body)).toEqual([{ email: person.email, metadata: { account_id: person.personalAccountId } }]);
    expect(customersMade[0].idempotencyKey).toBeTruthy();
    const firstIntent = stripe.paymentIntentFor(first.id);
    const secondIntent = stripe.paymentIntentFor(second.id);
    expect(firstIntent.customer).toMatch(/^cus_/);
    expect(secondIntent.customer).toBe(firstIntent.customer);

    const sent = stripe.requestsTo('POST', '/v1/payment_intents').filter((r) => r.body.metadata?.checkout_id === first.id);
    expect(sent).toHaveLength(1);
    expect(sent[0].body).toEqual({
      amount: '1000',
      currency: currency.toLowerCase(),
      customer: firstIntent.customer,
      description: 'Starter pack: 1,000 Headcount credits',
      allowed_payment_method_types: ['customer_balance'],
      payment_method_data: { type: 'customer_balance' },
      payment_method_options: { customer_balance: { funding_type: 'bank_transfer', bank_transfer: network === 'eu_bank_transfer' ? { type: network, eu_bank_transfer: { country: expect.stringMatching(/^[A-Z]{2}$/) } } : { type: network } } },
      confirm: 'true',
      metadata: { checkout_id: first.id, account_id: person.personalAccountId },
    });
    expect(sent[0].idempotencyKey).toContain(first.id);

    // What the person is told: Stripe's payee details for the currency, its reference, its page.
    const instructions = firstIntent.next_action.display_bank_transfer_instructions;
    expect(instructions.type).toBe(network);
    expect(instructions.financial_addresses[0].type).toBe(address);
    expect(first).toMatchObject({ provider: 'stripe', method: 'bank_transfer', status: 'pending', amount: 1000, currency, url: instructions.hosted_instructions_url });
    expect(first.bankTransfer).toEqual({ ...payeeFrom(instructions), reference: instructions.reference, amount: 1000, currency });
    expect(second.bankTransfer!.reference).toBe(secondIntent.next_action.display_bank_transfer_instructions.reference);

    // Awaited money is a pending row each (with the reference to look for), and no credits yet.
    const pending = await ledger(person.auth);
    expect(pending.map((row) => [row.ref, row.kind, row.state, row.amount])).toEqual([
      [second.id, 'purchase', 'pending', 5000],
      [first.id, 'purchase', 'pending', 1000],
    ]);
    expect(pending[1].title).toContain(instructions.reference);
    expect(await balance(person.auth)).toMatchObject({ credits: 0 });

    // A later card checkout of the account pays as the same Stripe customer.
    const card = await startCheckout(person, { pack: 'starter', currency, method: 'card' });
    const cardSession = stripe.requestsTo('POST', '/v1/checkout/sessions').find((r) => r.body.client_reference_id === card.id)!;
    expect(cardSession.body.customer).toBe(firstIntent.customer);
    expect(cardSession.body).not.toHaveProperty('customer_email');

    // The first transfer lands; the second is cancelled at Stripe.
    expect(await accepted(stripe.event('payment_intent.succeeded', stripe.fundPaymentIntent(firstIntent.id)))).toBe('applied');
    expect(await accepted(stripe.event('payment_intent.canceled', stripe.cancelPaymentIntent(secondIntent.id)))).toBe('applied');

    expect(await checkoutOf(person, first.id)).toMatchObject({ status: 'paid' });
    expect(await checkoutOf(person, second.id)).toMatchObject({ status: 'failed', paidAt: null });
    const settled = await ledger(person.auth);
    expect(settled.map((row) => [row.id, row.state])).toEqual([
      [pending[0].id, 'reversed'],
      [pending[1].id, 'available'],
    ]);
    expect(await balance(person.auth)).toMatchObject({ credits: 1000, currency });
    await expectReconciled(t);
  });
});

describe('refunds and disputes', () => {
  it('refunds report the total refunded: clawbacks are the differences, and an older report arriving late takes nothing', async () => {
    const person = await gbpPerson();
    const { paymentIntent } = await paidCardCheckout(person); // 5,000 credits for £47.50
    const first = stripe.event('charge.refunded', stripe.refund(paymentIntent.id, 1000)); // £10.00 refunded
    const second = stripe.event('charge.refunded', stripe.refund(paymentIntent.id, 2000)); // £30.00 in all
    const full = stripe.event('charge.refunded', stripe.refund(paymentIntent.id, 1750)); // all £47.50
    expect(full.data.object).toMatchObject({ amount: 4750, amount_refunded: 4750, refunded: true, payment_intent: paymentIntent.id });

    expect(await accepted(first)).toBe('applied');
    expect(await balance(person.auth)).toMatchObject({ credits: 5000 - 1053 }); // 5,000 × 10.00 / 47.50, rounded up
    expect(await accepted(full)).toBe('applied');
    expect(await accepted(second)).toBe('unchanged'); // older than the full refund already applied
    expect(await accepted(first)).toBe('duplicate');

    const rows = await ledger(person.auth);
    expect(rows.map((row) => [row.kind, row.amount])).toEqual([
      ['clawback', -3947],
      ['clawback', -1053],
      ['purchase', 5000],
    ]);
    expect(rows[1].title).toMatch(/^Refund of £10\.00: 1,053 credits/);
    expect(rows[0].title).toMatch(/^Refund of £37\.50: 3,947 credits/);
    expect(await balance(person.auth)).toMatchObject({ credits: 0 });
    await expectReconciled(t);
  });

  it('a dispute takes the credits back; closed as won, they come back', async () => {
    const person = await gbpPerson();
    const { paymentIntent } = await paidCardCheckout(person);
    const dispute = stripe.openDispute(paymentIntent.id);
    expect(await accepted(stripe.event('charge.dispute.created', dispute))).toBe('applied');
    expect(await balance(person.auth)).toMatchObject({ credits: 0 });
    expect(await accepted(stripe.event('charge.dispute.closed', stripe.closeDispute(dispute.id, 'won')))).toBe('applied');
    expect(await balance(person.auth)).toMatchObject({ credits: 5000 });
    expect((await ledger(person.auth)).map((row) => [row.kind, row.amount])).toEqual([
      ['adjustment', 5000],
      ['clawback', -5000],
      ['purchase', 5000],
    ]);
    await expectReconciled(t);
  });

  it('a dispute closed as lost keeps the credits taken', async () => {
    const person = await gbpPerson();
    const { paymentIntent } = await paidCardCheckout(person);
    const dispute = stripe.openDispute(paymentIntent.id);
    await accepted(stripe.event('charge.dispute.created', dispute));
    expect(await accepted(stripe.event('charge.dispute.closed', stripe.closeDispute(dispute.id, 'lost')))).toBe('unchanged');
    expect(await balance(person.auth)).toMatchObject({ credits: 0 });
    expect((await ledger(person.auth)).map((row) => [row.kind, row.amount])).toEqual([
      ['clawback', -5000],
      ['purchase', 5000],
    ]);
    await expectReconciled(t);
  });

  it('an inquiry (no money taken) that closes without a chargeback gives the credits back', async () => {
    const person = await gbpPerson();
    const { paymentIntent } = await paidCardCheckout(person);
    const inquiry = stripe.openDispute(paymentIntent.id, { status: 'warning_needs_response' });
    await accepted(stripe.event('charge.dispute.created', inquiry));
    await accepted(stripe.event('charge.dispute.closed', stripe.closeDispute(inquiry.id, 'warning_closed')));
    expect(await balance(person.auth)).toMatchObject({ credits: 5000 });
    await expectReconciled(t);
  });

  it('dispute events in any order: a close that arrives before its dispute settles it, and the dispute then changes nothing', async () => {
    const person = await gbpPerson();
    const { paymentIntent } = await paidCardCheckout(person);
    const won = stripe.openDispute(paymentIntent.id);
    const wonCreated = stripe.event('charge.dispute.created', won);
    expect(await accepted(stripe.event('charge.dispute.closed', stripe.closeDispute(won.id, 'won')))).toBe('unchanged');
    expect(await accepted(wonCreated)).toBe('unchanged');
    expect(await balance(person.auth)).toMatchObject({ credits: 5000 });

    const lost = stripe.openDispute(paymentIntent.id);
    const lostCreated = stripe.event('charge.dispute.created', lost);
    expect(await accepted(stripe.event('charge.dispute.closed', stripe.closeDispute(lost.id, 'lost')))).toBe('applied');
    expect(await accepted(lostCreated)).toBe('unchanged');
    expect(await balance(person.auth)).toMatchObject({ credits: 0 });
    expect((await ledger(person.auth)).map((row) => [row.kind, row.amount])).toEqual([
      ['clawback', -5000],
      ['purchase', 5000],
    ]);
    await expectReconciled(t);
  });

  it('a refund of a payment not confirmed here yet is refused with 409 and nothing recorded; sent again after the payment, it applies', async () => {
    const person = await gbpPerson();
    const checkout = await startCheckout(person, { pack: 'starter', currency: 'GBP', method: 'card' });
    const { session, paymentIntent } = stripe.payCheckoutSession(stripe.sessionFor(checkout.id).id);
    const refund = stripe.event('charge.refunded', stripe.refund(paymentIntent.id, 1000));

    const early = await deliver(refund);
    expect(early.status, early.body).toBe(409);
    expect(JSON.parse(early.body)).toMatchObject({ error: { code: 'conflict', details: { reason: 'not_ready' } } });
    expect(await recorded(refund.id)).toBe(false);
    expect(await ledger(person.auth)).toEqual([]);

    expect(await accepted(stripe.event('checkout.session.completed', session))).toBe('applied');
    // Stripe retries the same event (same id, a new signature).
    expect(await accepted(refund)).toBe('applied');
    expect((await ledger(person.auth)).map((row) => [row.kind, row.amount])).toEqual([
      ['clawback', -1000],
      ['purchase', 1000],
    ]);
    expect(await balance(person.auth)).toMatchObject({ credits: 0 });
    await expectReconciled(t);
  });
});

describe('when Stripe fails or cannot be reached', () => {
  /** Starts a checkout that must fail: 503 with Retry-After, and the checkout (the newest) is `failed`. */
  async function refusedCheckout(person: SignedInPerson, body: Record<string, unknown>): Promise<Checkout> {
    const response = await t.inject({ method: 'POST', url: '/v1/billing/checkout', headers: person.auth, payload: body });
    expect(response.statusCode, response.body).toBe(503);
    expect(response.headers['retry-after']).toBe('30');
    expect(response.json().error).toMatchObject({ code: 'service_unavailable', message: expect.stringMatching(/nothing was charged/) });
    const [newest] = (await t.inject({ url: '/v1/billing/checkouts', headers: person.auth })).json().checkouts;
    return checkoutOf(person, newest.id);
  }

  it('500s: checkout answers 503 with Retry-After and the checkout is failed; the SDK\'s retries all carried one Idempotency-Key', async () => {
    const person = await gbpPerson();
    stripe.failWith('server_error');
    let failed: Checkout;
    try {
      failed = await refusedCheckout(person, { pack: 'starter', currency: 'GBP', method: 'card' });
    } finally {
      stripe.failWith(null);
    }
    expect(failed).toMatchObject({ status: 'failed', url: null });
    const attempts = stripe.requestsTo('POST', '/v1/checkout/sessions').filter((r) => r.body.client_reference_id === failed.id);
    expect(attempts.map((r) => r.answered)).toEqual([500, 500, 500]);
    expect(new Set(attempts.map((r) => r.idempotencyKey)).size).toBe(1);
    expect(await ledger(person.auth)).toEqual([]);

    // Stripe back: the next checkout works.
    expect(await startCheckout(person, { pack: 'starter', currency: 'GBP', method: 'card' })).toMatchObject({ status: 'open' });
  });

  it('an answer lost on the way back: the SDK\'s retry, under the same Idempotency-Key, gets the same session and the checkout works', async () => {
    const person = await gbpPerson();
    stripe.failWith('lose_answer', { times: 1 });
    const checkout = await startCheckout(person, { pack: 'starter', currency: 'GBP', method: 'card' });
    const attempts = stripe.requestsTo('POST', '/v1/checkout/sessions').filter((r) => r.body.client_reference_id === checkout.id);
    expect(attempts.map((r) => [r.answered, r.replayed])).toEqual([
      ['dropped', false],
      [200, true], // the session made by the first attempt, not a second one
    ]);
    expect(attempts[1].idempotencyKey).toBe(attempts[0].idempotencyKey);
    expect(checkout).toMatchObject({ status: 'open', url: stripe.sessionFor(checkout.id).url });
  });

  it('dropped connections on a bank transfer: 503, the checkout is failed, and no pending row is written', async () => {
    const person = await gbpPerson();
    stripe.failWith('drop');
    let failed: Checkout;
    try {
      failed = await refusedCheckout(person, { pack: 'starter', currency: 'GBP', method: 'bank_transfer' });
    } finally {
      stripe.failWith(null);
    }
    expect(failed).toMatchObject({ status: 'failed', bankTransfer: null });
    const attempts = stripe.requestsTo('POST', '/v1/customers').filter((r) => r.body.metadata?.account_id === person.personalAccountId);
    expect(attempts.map((r) => r.answered)).toEqual(['dropped', 'dropped', 'dropped']);
    expect(await ledger(person.auth)).toEqual([]);
    expect(await balance(person.auth)).toMatchObject({ credits: 0 });
  });
});

// Last: it moves the clock a week on, past every earlier checkout's time.
describe('the expiry job', () => {
  it('cancels an overdue transfer at Stripe and reverses its pending row; one Stripe says was paid is left for its event', async () => {
    let person = await gbpPerson();
    const abandoned = await startCheckout(person, { pack: 'starter', currency: 'GBP', method: 'bank_transfer' });
    const cancelledThere = await startCheckout(person, { pack: 'starter', currency: 'GBP', method: 'bank_transfer' });
    const paidLate = await startCheckout(person, { pack: 'standard', currency: 'GBP', method: 'bank_transfer' });
    const abandonedIntent = stripe.paymentIntentFor(abandoned.id).id;
    // The second was cancelled in Stripe's dashboard and its event never reached us.
    const cancelledIntent = stripe.cancelPaymentIntent(stripe.paymentIntentFor(cancelledThere.id).id).id;
    // The money for the third landed at Stripe; its event has not reached us yet.
    const landed = stripe.fundPaymentIntent(stripe.paymentIntentFor(paidLate.id).id);

    t.clock.advance(7 * DAY_MS + 60_000);
    await t.container.paymentEvents.expireOverdue();

    expect(stripe.requestsTo('POST', `/v1/payment_intents/${abandonedIntent}/cancel`).map((r) => r.answered)).toEqual([200]);
    expect(stripe.get(abandonedIntent).status).toBe('canceled');
    expect(stripe.requestsTo('POST', `/v1/payment_intents/${cancelledIntent}/cancel`).map((r) => r.answered)).toEqual([400]);
    expect(stripe.requestsTo('POST', `/v1/payment_intents/${landed.id}/cancel`).map((r) => r.answered)).toEqual([400]);

    person = await signIn(t, person.email); // a week unused ended the session
    expect(await checkoutOf(person, abandoned.id)).toMatchObject({ status: 'expired' });
    expect(await checkoutOf(person, cancelledThere.id)).toMatchObject({ status: 'expired' });
    expect(await checkoutOf(person, paidLate.id)).toMatchObject({ status: 'pending' });
    expect((await ledger(person.auth)).map((row) => [row.ref, row.state])).toEqual([
      [paidLate.id, 'pending'],
      [cancelledThere.id, 'reversed'],
      [abandoned.id, 'reversed'],
    ]);

    // Stripe's own report of our cancellation changes nothing more; the landed payment's event credits it.
    expect(await accepted(stripe.event('payment_intent.canceled', stripe.get(abandonedIntent)))).toBe('unchanged');
    expect(await accepted(stripe.event('payment_intent.succeeded', landed))).toBe('applied');
    expect(await checkoutOf(person, paidLate.id)).toMatchObject({ status: 'paid' });
    expect(await checkoutOf(person, abandoned.id)).toMatchObject({ status: 'expired' });
    expect(await balance(person.auth)).toMatchObject({ credits: 5000 });
    await expectReconciled(t);
  });

  it('a transfer that cannot be cancelled (paid at Stripe) does not hold up the ones after it, however small the batch', async () => {
    let person = await gbpPerson();
    const stuck = await startCheckout(person, { pack: 'starter', currency: 'GBP', method: 'bank_transfer' });
    stripe.fundPaymentIntent(stripe.paymentIntentFor(stuck.id).id);
    t.clock.advance(1000);
    const abandoned = await startCheckout(person, { pack: 'starter', currency: 'GBP', method: 'bank_transfer' });
    t.clock.advance(7 * DAY_MS + 60_000);
    expect(await t.container.paymentEvents.expireOverdue(1)).toBe(1);
    person = await signIn(t, person.email);
    expect(await checkoutOf(person, stuck.id)).toMatchObject({ status: 'pending' });
    expect(await checkoutOf(person, abandoned.id)).toMatchObject({ status: 'expired' });
  });
});
