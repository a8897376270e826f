import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { systemClock, type Clock } from '../../src/lib/clock.ts';

/**
 * A local stand-in for the part of Stripe's REST API our adapter calls (src/modules/billing/
 * stripe-provider.ts), so the official SDK can be pointed at it (STRIPE_API_URL) and every byte it
 * sends goes over real HTTP. It behaves the way Stripe does where our code depends on it:
 * form-encoded bodies in bracket notation, Bearer secret keys, Stripe's error shape, Idempotency-Key
 * replays, Checkout Sessions, customers, and customer-balance PaymentIntents whose confirmation
 * returns bank transfer instructions. It also plays the world outside the API (a customer paying,
 * a refund, a dispute) through plain methods, and builds and signs events as Stripe's webhooks
 * deliver them. It is deliberately strict: a parameter Stripe would refuse is refused here.
 */
export type Json = Record<string, any>;

export interface RecordedRequest {
  method: string;
  path: string;
  /** The form body parsed into nested objects and arrays (every leaf a string, as on the wire). */
  body: Json;
  idempotencyKey: string | null;
  /** What the stand-in answered: an HTTP status, or 'dropped' when it cut the connection instead. */
  answered: number | 'dropped';
  /** The answer was a replay of an earlier request's with the same Idempotency-Key. */
  replayed: boolean;
}

/**
 * How the API fails, in front of it (`server_error`: 500s in Stripe's shape; `drop`: the
 * connection is cut once the request has arrived) or behind it (`lose_answer`: the request is
 * carried out and remembered under its Idempotency-Key, but the connection is cut before the answer).
 */
export type Failure = 'server_error' | 'drop' | 'lose_answer';

/** Stripe's error envelope; `status` is the HTTP status it comes with. */
class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: Json,
  ) {
    super(String(error.message));
  }
}

const invalidRequest = (message: string, extra: Json = {}) => new StripeApiError(400, { type: 'invalid_request_error', message, ...extra });
const missingParam = (param: string) => invalidRequest(`Missing required param: ${param}.`, { code: 'parameter_missing', param });
const noSuch = (kind: string, id: string) => new StripeApiError(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}: '${id}'`, param: 'id' });

// ---------------------------------------------------------------------------------------------
// Stripe's form encoding

/** Names a form key may not use: they would reach an object's prototype. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** `a[b][0][c]` → ['a', 'b', '0', 'c']; `a[]` → ['a', ''] (append). */
function keyPath(key: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) throw invalidRequest(`Invalid parameter name: ${key}`);
  const path = [match[1], ...Array.from(match[2].matchAll(/\[([^[\]]*)\]/g), (m) => m[1])];
  if (path.some((segment) => FORBIDDEN_KEYS.has(segment))) throw invalidRequest(`Invalid parameter name: ${key}`);
  return path;
}

const decodeFormPart = (part: string) => {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    throw invalidRequest(`Invalid URL encoding: ${part}`);
  }
};

const nextIndex = (node: Json) => Object.keys(node).filter((k) => /^\d+$/.test(k)).length;

/** Objects whose keys are all array indices become arrays (Stripe's `list[0]=a&list[1]=b`), in index order. */
function withArrays(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value as Json).map(([k, v]) => [k, withArrays(v)] as const);
  if (entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k))) {
    return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v);
  }
  return Object.fromEntries(entries);
}

/**
 * Parses `application/x-www-form-urlencoded` in Stripe's bracket notation into nested objects
 * (`line_items[0][price_data][unit_amount]=4750` → `{line_items: [{price_data: {unit_amount: '4750'}}]}`).
 * Leaves stay strings, as Stripe receives them; an empty value is the empty string (Stripe's "unset").
 */
export function parseStripeForm(body: string): Json {
  const root: Json = {};
  for (const pair of body.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const path = keyPath(decodeFormPart(eq === -1 ? pair : pair.slice(0, eq)));
    const value = eq === -1 ? '' : decodeFormPart(pair.slice(eq + 1));
    let node = root;
    for (let i = 0; i < path.length; i += 1) {
      const segment = path[i] === '' ? String(nextIndex(node)) : path[i];
      const last = i === path.length - 1;
      const existing = node[segment];
      if (last) {
        if (typeof existing === 'object') throw invalidRequest(`Invalid parameter: ${path.slice(0, i + 1).join('.')} is both a value and a hash`);
        node[segment] = value;
      } else {
        if (existing === undefined) node[segment] = {};
        else if (typeof existing !== 'object') throw invalidRequest(`Invalid parameter: ${path.slice(0, i + 1).join('.')} is both a value and a hash`);
        node = node[segment];
      }
    }
  }
  return withArrays(root) as Json;
}

// ---------------------------------------------------------------------------------------------
// Events and signatures

/** The event types our adapter reads, and the object each carries. */
const EVENT_OBJECTS = {
  'checkout.session.completed': 'checkout.session',
  'checkout.session.async_payment_succeeded': 'checkout.session',
  'checkout.session.expired': 'checkout.session',
  'payment_intent.succeeded': 'payment_intent',
  'payment_intent.canceled': 'payment_intent',
  'charge.refunded': 'charge',
  'charge.dispute.created': 'dispute',
  'charge.dispute.closed': 'dispute',
} as const;
export type StandInEventType = keyof typeof EVENT_OBJECTS;

const randomId = (prefix: string, length: number) => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return prefix + Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join('');
};

/**
 * An event as Stripe's webhook delivers it (a snapshot event of the SDK's pinned API version):
 * the object is copied, so changing it later (another refund) does not change this event.
 */
export function stripeEvent(type: StandInEventType, object: Json, createdSeconds: number): Json {
  if (object.object !== EVENT_OBJECTS[type]) throw new Error(`a ${type} event carries a ${EVENT_OBJECTS[type]}, not a ${object.object}`);
  return {
    id: randomId('evt_', 24),
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: createdSeconds,
    type,
    data: { object: structuredClone(object) },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
  };
}

/** The exact bytes Stripe posts: pretty-printed JSON. */
export const eventPayload = (event: Json): string => JSON.stringify(event, null, 2);

/** A real Stripe-Signature header (`t=…,v1=…`) for these bytes, made by the official SDK. */
export function signedHeader(payload: string, secret: string, timestampSeconds: number): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: timestampSeconds });
}

// ---------------------------------------------------------------------------------------------
// The server

/** The account holder Stripe names on the bank details it shows (the merchant, us). */
const HOLDER = 'Headcount Ltd';
const address = (country: string) => ({ city: 'Dublin', country, line1: '1 Test Street', line2: null, postal_code: 'D02 X285', state: null });

/** Each customer gets account numbers of their own (as with Stripe's customer balance), stable across their PaymentIntents. */
function financialAddresses(type: string, customerId: string, country: string | undefined): Json[] {
  const digits = (n: number) => String(parseInt(customerId.slice(4, 12).replace(/[^0-9a-z]/gi, '0'), 36) % 10 ** n).padStart(n, '0');
  switch (type) {
    case 'gb_bank_transfer':
      return [{ type: 'sort_code', sort_code: { account_holder_address: address('GB'), account_holder_name: HOLDER, account_number: digits(8), bank_address: address('GB'), sort_code: '108800' }, supported_networks: ['bacs', 'fps'] }];
    case 'eu_bank_transfer':
      return [{ type: 'iban', iban: { account_holder_address: address(country!), account_holder_name: HOLDER, bank_address: address(country!), bic: 'SXPYIE22XXX', country, iban: `${country}29SXPY99009${digits(11)}` }, supported_networks: ['sepa'] }];
    default:
      return [
        { type: 'aba', aba: { account_holder_address: address('US'), account_holder_name: HOLDER, account_number: digits(12), account_type: 'checking', bank_address: address('US'), bank_name: 'Stripe Test Bank', routing_number: '999999999' }, supported_networks: ['ach', 'domestic_wire_us'] },
        { type: 'swift', swift: { account_holder_address: address('US'), account_holder_name: HOLDER, account_number: digits(12), account_type: 'checking', bank_address: address('US'), bank_name: 'Stripe Test Bank', swift_code: 'TSTEZ122' }, supported_networks: ['swift'] },
      ];
  }
}

/** The bank transfer network that takes each currency (Stripe refuses any other pairing). */
const NETWORK_CURRENCY: Record<string, string> = { gb_bank_transfer: 'gbp', eu_bank_transfer: 'eur', us_bank_transfer: 'usd' };
const EU_TRANSFER_COUNTRIES = ['BE', 'DE', 'ES', 'FR', 'IE', 'NL'];

export interface StripeStandIn {
  /** For STRIPE_API_URL. */
  url: string;
  /** Every API request, in order. */
  requests: RecordedRequest[];
  /** The stand-in's "now" (Checkout expiry limits, `created`); point it at the app's FakeClock. */
  clock: Clock;
  /** The recorded requests with this method and path. */
  requestsTo(method: string, path: string | RegExp): RecordedRequest[];
  /** Make API requests fail this way: the next `times` of them, or all until called again with null. */
  failWith(failure: Failure | null, options?: { times?: number }): void;
  /** An object as the API would return it now (a copy); throws when there is none. */
  get(id: string): Json;
  /** The Checkout Session or PaymentIntent made for our checkout (by metadata.checkout_id). */
  sessionFor(checkoutId: string): Json;
  paymentIntentFor(checkoutId: string): Json;
  /**
   * The customer pays on the Checkout page: the session completes with a succeeded PaymentIntent
   * and its charge; or, `async`, with the payment still `processing` (a bank debit) and the
   * session `unpaid` until settleCheckoutSession.
   */
  payCheckoutSession(sessionId: string, options?: { async?: boolean }): { session: Json; paymentIntent: Json; charge: Json | null };
  /** An async payment of a completed session succeeds. */
  settleCheckoutSession(sessionId: string): { session: Json; paymentIntent: Json; charge: Json };
  /** The Checkout page's time ran out. */
  expireCheckoutSession(sessionId: string): Json;
  /** The bank transfer landed: the PaymentIntent succeeds (and can no longer be cancelled). */
  fundPaymentIntent(paymentIntentId: string): Json;
  /** The PaymentIntent is cancelled at Stripe (the dashboard, or our API call). */
  cancelPaymentIntent(paymentIntentId: string): Json;
  /** A refund of `amount` more: the charge's cumulative `amount_refunded` grows. */
  refund(paymentIntentId: string, amount: number): Json;
  /** A dispute on the payment's charge (`warning_needs_response` is an inquiry). */
  openDispute(paymentIntentId: string, options?: { amount?: number; status?: 'needs_response' | 'warning_needs_response' }): Json;
  closeDispute(disputeId: string, status: 'won' | 'lost' | 'warning_closed'): Json;
  /** An event of this type about this object, created now by the stand-in's clock. */
  event(type: StandInEventType, object: Json): Json;
  close(): Promise<void>;
}

export async function startStripeStandIn(options: { secretKey: string }): Promise<StripeStandIn> {
  const objects = new Map<string, Json>();
  /** Idempotency-Key → the request it was first used with and the answer given. */
  const idempotent = new Map<string, { fingerprint: string; status: number; body: Json }>();
  const requests: RecordedRequest[] = [];
  let failure: { mode: Failure; remaining: number } | null = null;
  /** The failure this request meets, if any (counting it against `times`). */
  const failureNow = (): Failure | null => {
    if (!failure) return null;
    const { mode } = failure;
    if ((failure.remaining -= 1) === 0) failure = null;
    return mode;
  };
  let clock: Clock = systemClock;
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

  const find = (id: string, kind: string, object: string) => {
    const found = objects.get(id);
    if (!found || found.object !== object) throw noSuch(kind, id);
    return found;
  };
  const byCheckout = (object: string, checkoutId: string) => {
    const found = [...objects.values()].find((o) => o.object === object && o.metadata?.checkout_id === checkoutId);
    if (!found) throw new Error(`the stand-in has no ${object} for checkout ${checkoutId}`);
    return found;
  };

  function newCharge(paymentIntent: Json, paymentMethodType: string): Json {
    const charge = {
      id: randomId('ch_', 24),
      object: 'charge',
      amount: paymentIntent.amount,
      amount_captured: paymentIntent.amount,
      amount_refunded: 0,
      refunded: false,
      currency: paymentIntent.currency,
      customer: paymentIntent.customer ?? null,
      disputed: false,
      metadata: { ...paymentIntent.metadata },
      paid: true,
      payment_intent: paymentIntent.id,
      payment_method_details: { type: paymentMethodType },
      status: 'succeeded',
      created: nowSeconds(),
      livemode: false,
    };
    objects.set(charge.id, charge);
    return charge;
  }

  function succeed(intent: Json, paymentMethodType: string): void {
    if (intent.status === 'succeeded' || intent.status === 'canceled') throw new Error(`PaymentIntent ${intent.id} is already ${intent.status}`);
    const charge = newCharge(intent, paymentMethodType);
    Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, next_action: null, latest_charge: charge.id });
  }

  function chargeOf(paymentIntentId: string): Json {
    const intent = find(paymentIntentId, 'payment_intent', 'payment_intent');
    if (!intent.latest_charge) throw new Error(`PaymentIntent ${paymentIntentId} has no charge (it did not succeed)`);
    return objects.get(intent.latest_charge)!;
  }

  function settleSession(sessionId: string) {
    const session = find(sessionId, 'checkout.session', 'checkout.session');
    if (session.status !== 'complete' || session.payment_status !== 'unpaid') throw new Error(`Checkout Session ${sessionId} has no payment to settle`);
    const intent = find(session.payment_intent, 'payment_intent', 'payment_intent');
    succeed(intent, intent.payment_method_types[0]);
    session.payment_status = 'paid';
    return { session: publicView(session), paymentIntent: publicView(intent), charge: publicView(chargeOf(intent.id)) };
  }

  // --- the API ---

  function createCheckoutSession(body: Json): Json {
    if (body.mode !== 'payment') throw invalidRequest('This stand-in makes Checkout Sessions in `payment` mode only.', { param: 'mode' });
    if (!body.success_url) throw missingParam('success_url');
    if (body.customer && body.customer_email) throw invalidRequest('You may only specify one of these parameters: customer, customer_email.');
    if (body.customer) find(body.customer, 'customer', 'customer');
    const items: Json[] = body.line_items ?? [];
    if (!Array.isArray(items) || items.length === 0) throw missingParam('line_items');
    let amount = 0;
    let currency: string | null = null;
    items.forEach((item, i) => {
      const price = item.price_data;
      if (!price) throw missingParam(`line_items[${i}][price_data]`);
      if (!/^\d+$/.test(price.unit_amount ?? '')) throw invalidRequest(`Invalid integer: ${price.unit_amount}`, { param: `line_items[${i}][price_data][unit_amount]` });
      if (!/^[a-z]{3}$/.test(price.currency ?? '')) throw invalidRequest(`Invalid currency: ${price.currency}`, { param: `line_items[${i}][price_data][currency]` });
      if (!price.product_data?.name) throw missingParam(`line_items[${i}][price_data][product_data][name]`);
      amount += Number(price.unit_amount) * Number(item.quantity ?? 1);
      currency = price.currency;
    });
    for (const type of body.allowed_payment_method_types ?? []) {
      if (!['card', 'customer_balance', 'link'].includes(type)) throw invalidRequest(`Invalid allowed_payment_method_types[0]: must be one of card, customer_balance, link (the stand-in's subset)`);
    }
    const created = nowSeconds();
    if (body.expires_at !== undefined) {
      // Stripe's limits: a session lives between 30 minutes and 24 hours.
      const expiresAt = Number(body.expires_at);
      if (!Number.isInteger(expiresAt)) throw invalidRequest(`Invalid integer: ${body.expires_at}`, { param: 'expires_at' });
      if (expiresAt < created + 30 * 60) throw invalidRequest('The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.', { param: 'expires_at' });
      if (expiresAt > created + 24 * 3600) throw invalidRequest('The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.', { param: 'expires_at' });
    }
    const id = randomId('cs_test_', 58);
    const session = {
      id,
      object: 'checkout.session',
      mode: 'payment',
      url: `https://checkout.stripe.test/c/pay/${id}`,
      status: 'open',
      payment_status: 'unpaid',
      amount_subtotal: amount,
      amount_total: amount,
      currency,
      client_reference_id: body.client_reference_id ?? null,
      customer: body.customer ?? null,
      customer_email: body.customer_email ?? null,
      metadata: body.metadata ?? {},
      allowed_payment_method_types: body.allowed_payment_method_types ?? null,
      payment_method_types: body.allowed_payment_method_types ?? ['card'],
      // Since 2022-08-01 the PaymentIntent is made when the customer pays, not with the session.
      payment_intent: null,
      success_url: body.success_url,
      cancel_url: body.cancel_url ?? null,
      created,
      expires_at: body.expires_at !== undefined ? Number(body.expires_at) : created + 24 * 3600,
      livemode: false,
      // Kept to give the PaymentIntent its metadata when the customer pays (not part of Stripe's object).
      _payment_intent_data: body.payment_intent_data ?? {},
    };
    objects.set(id, session);
    return session;
  }

  function createCustomer(body: Json): Json {
    const customer = { id: randomId('cus_', 14), object: 'customer', email: body.email ?? null, metadata: body.metadata ?? {}, balance: 0, created: nowSeconds(), livemode: false };
    objects.set(customer.id, customer);
    return customer;
  }

  function createPaymentIntent(body: Json): Json {
    if (!/^\d+$/.test(body.amount ?? '') || Number(body.amount) < 1) throw invalidRequest(`Invalid positive integer`, { param: 'amount' });
    if (!/^[a-z]{3}$/.test(body.currency ?? '')) throw missingParam('currency');
    const methods: string[] = body.allowed_payment_method_types ?? [];
    if (!methods.includes('customer_balance')) throw invalidRequest('This stand-in makes customer_balance PaymentIntents only.', { param: 'allowed_payment_method_types' });
    if (!body.customer) throw invalidRequest('A customer is required when the PaymentIntent uses customer_balance.', { param: 'customer' });
    find(body.customer, 'customer', 'customer');
    if (body.payment_method_data?.type !== 'customer_balance') throw missingParam('payment_method_data[type]');
    const balance = body.payment_method_options?.customer_balance;
    if (balance?.funding_type !== 'bank_transfer') throw missingParam('payment_method_options[customer_balance][funding_type]');
    const type = balance.bank_transfer?.type;
    if (!NETWORK_CURRENCY[type]) throw invalidRequest(`Invalid payment_method_options[customer_balance][bank_transfer][type]: ${type}`);
    if (NETWORK_CURRENCY[type] !== body.currency) throw invalidRequest(`${type} does not support the currency ${body.currency}.`, { param: 'currency' });
    const country = balance.bank_transfer.eu_bank_transfer?.country;
    if (type === 'eu_bank_transfer' && !country) throw missingParam('payment_method_options[customer_balance][bank_transfer][eu_bank_transfer][country]');
    if (type === 'eu_bank_transfer' && !EU_TRANSFER_COUNTRIES.includes(country)) throw invalidRequest(`Invalid country: ${country}`);
    const confirm = body.confirm === 'true';
    const id = randomId('pi_', 24);
    const intent: Json = {
      id,
      object: 'payment_intent',
      amount: Number(body.amount),
      amount_received: 0,
      currency: body.currency,
      customer: body.customer,
      description: body.description ?? null,
      metadata: body.metadata ?? {},
      allowed_payment_method_types: methods,
      payment_method_types: ['customer_balance'],
      payment_method_options: { customer_balance: { funding_type: 'bank_transfer', bank_transfer: { type, ...(country ? { eu_bank_transfer: { country } } : {}) } } },
      status: confirm ? 'requires_action' : 'requires_confirmation',
      next_action: confirm
        ? {
            type: 'display_bank_transfer_instructions',
            display_bank_transfer_instructions: {
              type,
              reference: randomId('', 12).toUpperCase(),
              amount_remaining: Number(body.amount),
              currency: body.currency,
              hosted_instructions_url: `https://payments.stripe.test/bank_transfers/instructions/${randomId('test_', 40)}`,
              financial_addresses: financialAddresses(type, body.customer, country),
            },
          }
        : null,
      latest_charge: null,
      canceled_at: null,
      cancellation_reason: null,
      created: nowSeconds(),
      livemode: false,
    };
    objects.set(id, intent);
    return intent;
  }

  function cancelIntent(id: string, reason: string | null): Json {
    const intent = find(id, 'payment_intent', 'payment_intent');
    if (!['requires_payment_method', 'requires_capture', 'requires_confirmation', 'requires_action', 'processing'].includes(intent.status)) {
      throw invalidRequest(
        `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.`,
        { code: 'payment_intent_unexpected_state', payment_intent: publicView(intent) },
      );
    }
    Object.assign(intent, { status: 'canceled', canceled_at: nowSeconds(), cancellation_reason: reason, next_action: null });
    return intent;
  }

  /** What the API shows of an object: without the stand-in's own bookkeeping. */
  const publicView = (object: Json): Json => structuredClone(Object.fromEntries(Object.entries(object).filter(([k]) => !k.startsWith('_'))));

  function route(method: string, path: string, body: Json): Json {
    let match: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/checkout/sessions') return createCheckoutSession(body);
    if (method === 'POST' && path === '/v1/customers') return createCustomer(body);
    if (method === 'POST' && path === '/v1/payment_intents') return createPaymentIntent(body);
    if (method === 'POST' && (match = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path))) return cancelIntent(match[1], body.cancellation_reason ?? null);
    if (method === 'GET' && (match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path))) return find(match[1], 'checkout.session', 'checkout.session');
    if (method === 'GET' && (match = /^\/v1\/customers\/([^/]+)$/.exec(path))) return find(match[1], 'customer', 'customer');
    if (method === 'GET' && (match = /^\/v1\/payment_intents\/([^/]+)$/.exec(path))) return find(match[1], 'payment_intent', 'payment_intent');
    throw new StripeApiError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.` });
  }

  /** Stripe's answer to an authenticated, well-formed request, replaying a used Idempotency-Key's first answer. */
  function answer(method: string, path: string, body: Json, idempotencyKey: string | null): { status: number; body: Json; replayed: boolean } {
    const fingerprint = JSON.stringify([method, path, body]);
    if (method === 'POST' && idempotencyKey) {
      const earlier = idempotent.get(idempotencyKey);
      if (earlier && earlier.fingerprint !== fingerprint) {
        return {
          status: 400,
          replayed: false,
          body: { error: { type: 'idempotency_error', message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.` } },
        };
      }
      if (earlier) return { status: earlier.status, body: earlier.body, replayed: true };
    }
    let status = 200;
    let out: Json;
    try {
      out = publicView(route(method, path, body));
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      status = error.status;
      out = { error: error.error };
    }
    // Stripe keeps the first answer for a key, errors included, once the endpoint has run.
    if (method === 'POST' && idempotencyKey) idempotent.set(idempotencyKey, { fingerprint, status, body: out });
    return { status, body: out, replayed: false };
  }

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const method = request.method ?? 'GET';
      const path = (request.url ?? '/').split('?')[0];
      const idempotencyKey = (request.headers['idempotency-key'] as string | undefined) ?? null;
      const record: RecordedRequest = { method, path, body: {}, idempotencyKey, answered: 200, replayed: false };
      requests.push(record);
      const send = (status: number, body: Json, headers: Record<string, string> = {}) => {
        record.answered = status;
        response.writeHead(status, { 'content-type': 'application/json', 'request-id': randomId('req_', 14), 'stripe-version': Stripe.API_VERSION, ...headers });
        response.end(JSON.stringify(body, null, 2));
      };
      try {
        const raw = Buffer.concat(chunks).toString('utf8');
        const contentType = request.headers['content-type'] ?? '';
        if (method === 'POST' && raw !== '' && !contentType.startsWith('application/x-www-form-urlencoded')) {
          throw invalidRequest(`Invalid request: bodies must be application/x-www-form-urlencoded (got ${contentType || 'none'}).`);
        }
        record.body = parseStripeForm(raw);
        const failing = failureNow();
        const cut = () => {
          record.answered = 'dropped';
          request.socket.destroy();
        };
        if (failing === 'drop') return cut();
        if (failing === 'server_error') return send(500, { error: { type: 'api_error', message: 'An unknown error occurred' } });
        const authorization = request.headers.authorization ?? '';
        if (!authorization.startsWith('Bearer ')) {
          return send(401, { error: { type: 'invalid_request_error', message: "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY')." } });
        }
        const key = authorization.slice('Bearer '.length);
        if (key !== options.secretKey) {
          return send(401, { error: { type: 'invalid_request_error', message: `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}` } });
        }
        const result = answer(method, path, record.body, idempotencyKey);
        record.replayed = result.replayed;
        if (failing === 'lose_answer') return cut();
        send(result.status, result.body, result.replayed ? { 'idempotent-replayed': 'true', 'original-request': 'req_original' } : {});
      } catch (error) {
        if (error instanceof StripeApiError) return send(error.status, { error: error.error });
        send(500, { error: { type: 'api_error', message: `The stand-in failed: ${(error as Error).message}` } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    get clock() {
      return clock;
    },
    set clock(next: Clock) {
      clock = next;
    },
    requestsTo: (method, path) => requests.filter((r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path))),
    failWith(next, failOptions = {}) {
      failure = next ? { mode: next, remaining: failOptions.times ?? Infinity } : null;
    },
    get(id) {
      const found = objects.get(id);
      if (!found) throw new Error(`the stand-in has no object ${id}`);
      return publicView(found);
    },
    sessionFor: (checkoutId) => publicView(byCheckout('checkout.session', checkoutId)),
    paymentIntentFor: (checkoutId) => publicView(byCheckout('payment_intent', checkoutId)),

    payCheckoutSession(sessionId, payOptions = {}) {
      const session = find(sessionId, 'checkout.session', 'checkout.session');
      if (session.status !== 'open') throw new Error(`Checkout Session ${sessionId} is ${session.status}`);
      const intent: Json = {
        id: randomId('pi_', 24),
        object: 'payment_intent',
        amount: session.amount_total,
        amount_received: 0,
        currency: session.currency,
        customer: session.customer,
        description: null,
        metadata: session._payment_intent_data.metadata ?? {},
        allowed_payment_method_types: session.allowed_payment_method_types,
        // A card settles at once; an async method (a bank debit, were the session to allow one) settles later.
        payment_method_types: [payOptions.async ? 'bacs_debit' : 'card'],
        status: 'processing',
        next_action: null,
        latest_charge: null,
        canceled_at: null,
        cancellation_reason: null,
        created: nowSeconds(),
        livemode: false,
      };
      objects.set(intent.id, intent);
      Object.assign(session, { status: 'complete', payment_status: 'unpaid', payment_intent: intent.id });
      if (payOptions.async) return { session: publicView(session), paymentIntent: publicView(intent), charge: null };
      return settleSession(sessionId);
    },

    settleCheckoutSession: settleSession,

    expireCheckoutSession(sessionId) {
      const session = find(sessionId, 'checkout.session', 'checkout.session');
      if (session.status !== 'open') throw new Error(`Checkout Session ${sessionId} is ${session.status}`);
      Object.assign(session, { status: 'expired', url: null });
      return publicView(session);
    },

    fundPaymentIntent(paymentIntentId) {
      const intent = find(paymentIntentId, 'payment_intent', 'payment_intent');
      succeed(intent, 'customer_balance');
      return publicView(intent);
    },

    cancelPaymentIntent: (paymentIntentId) => publicView(cancelIntent(paymentIntentId, 'abandoned')),

    refund(paymentIntentId, amount) {
      const charge = chargeOf(paymentIntentId);
      if (charge.amount_refunded + amount > charge.amount) throw new Error(`refunding ${amount} more of ${charge.id} would refund more than was paid`);
      charge.amount_refunded += amount;
      charge.refunded = charge.amount_refunded === charge.amount;
      return publicView(charge);
    },

    openDispute(paymentIntentId, disputeOptions = {}) {
      const charge = chargeOf(paymentIntentId);
      const dispute = {
        id: randomId('dp_', 24),
        object: 'dispute',
        amount: disputeOptions.amount ?? charge.amount,
        currency: charge.currency,
        charge: charge.id,
        payment_intent: paymentIntentId,
        reason: 'fraudulent',
        status: disputeOptions.status ?? 'needs_response',
        is_charge_refundable: false,
        created: nowSeconds(),
        livemode: false,
      };
      charge.disputed = true;
      objects.set(dispute.id, dispute);
      return publicView(dispute);
    },

    closeDispute(disputeId, status) {
      const dispute = find(disputeId, 'dispute', 'dispute');
      dispute.status = status;
      return publicView(dispute);
    },

    event: (type, object) => stripeEvent(type, object, nowSeconds()),

    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A made-up test-mode key of Stripe's shape, for a suite's configuration. */
export const testSecretKey = () => randomId('sk_test_', 24);
export const testWebhookSecret = () => randomId('whsec_', 32);
