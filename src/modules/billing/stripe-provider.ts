import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import type { StripeConfig } from '../../config.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Currency } from '../../lib/currencies.ts';
import type { BankTransfer } from './billing.schemas.ts';
import { ProviderEventError, type CheckoutRequest, type PaymentEvent, type PaymentProvider, type ProviderCheckout } from './payment-provider.ts';

/** Stripe's limit on how old a signed event may be (its default, 5 minutes), against our clock. */
const SIGNATURE_TOLERANCE_SECONDS = 300;

/** Stripe's bank transfer networks by currency (customer balance funding); CAD has none (the checkout refuses it). */
const BANK_TRANSFER_TYPE: Partial<Record<Currency, Stripe.PaymentIntentCreateParams.PaymentMethodOptions.CustomerBalance.BankTransfer>> = {
  GBP: { type: 'gb_bank_transfer' },
  EUR: { type: 'eu_bank_transfer', eu_bank_transfer: { country: 'IE' } },
  USD: { type: 'us_bank_transfer' },
};

const idOf = (value: string | { id: string } | null | undefined): string | null => (typeof value === 'string' ? value : (value?.id ?? null));

/** The payee details of a PaymentIntent's bank transfer instructions, as the API shows them. */
function bankTransferOf(instructions: Stripe.PaymentIntent.NextAction.DisplayBankTransferInstructions, amount: number, currency: Currency): BankTransfer {
  const out: BankTransfer = { payee: '', reference: instructions.reference ?? '', amount, currency };
  for (const address of instructions.financial_addresses ?? []) {
    if (address.sort_code) Object.assign(out, { payee: address.sort_code.account_holder_name, sortCode: address.sort_code.sort_code, accountNumber: address.sort_code.account_number });
    else if (address.iban) Object.assign(out, { payee: address.iban.account_holder_name, iban: address.iban.iban, bic: address.iban.bic });
    else if (address.aba) Object.assign(out, { payee: address.aba.account_holder_name, routingNumber: address.aba.routing_number, accountNumber: address.aba.account_number, bankName: address.aba.bank_name });
    else continue;
    break;
  }
  return out;
}

/**
 * Stripe (docs/payments.md "Stripe"), through the official SDK. A card is paid on a Stripe
 * Checkout page; a bank transfer is a PaymentIntent funded from the customer's balance, whose
 * instructions (payee, account, reference) the API returns at once. Events arrive signed at
 * POST /v1/billing/webhooks/stripe and are verified by the SDK (constructEvent) before anything
 * is read from them. STRIPE_API_URL points the SDK at a stand-in (tests).
 */
export function createStripeProvider(config: StripeConfig, clock: Clock): PaymentProvider & { parseEvent(rawBody: string, signature: string | undefined): PaymentEvent } {
  const api = config.apiUrl ? new URL(config.apiUrl) : null;
  // Loaded here, only when Stripe is configured: the SDK is ~50 ms of every start otherwise (issue 15).
  const StripeSdk = createRequire(import.meta.url)('stripe') as typeof Stripe;
  const stripe = new StripeSdk(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(api ? { host: api.hostname, port: api.port || (api.protocol === 'https:' ? 443 : 80), protocol: api.protocol === 'https:' ? 'https' : 'http' } : {}),
  });

  async function cardCheckout(request: CheckoutRequest): Promise<ProviderCheckout> {
    const metadata = { checkout_id: request.checkoutId, account_id: request.accountId };
    const session = await stripe.checkout.sessions.create(
      {
        mode: 'payment',
        client_reference_id: request.checkoutId,
        ...(request.customerRef ? { customer: request.customerRef } : { customer_email: request.email }),
        line_items: [{ quantity: 1, price_data: { currency: request.currency.toLowerCase(), unit_amount: request.amount, product_data: { name: request.packName } } }],
        allowed_payment_method_types: ['card'],
        metadata,
        payment_intent_data: { metadata },
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
        expires_at: Math.floor(request.expiresAt.getTime() / 1000),
      },
      // A retry of this call (the SDK's own, on a network error) makes no second session.
      { idempotencyKey: `checkout:${request.checkoutId}` },
    );
    if (!session.url) throw new Error(`Stripe made Checkout Session ${session.id} without a url`);
    return { providerRef: session.id, paymentRef: idOf(session.payment_intent), url: session.url, bankTransfer: null };
  }

  /** One customer per account (the idempotency key makes a retry of this call make no second one). */
  async function makeCustomer(account: { accountId: string; email: string }): Promise<string> {
    const customer = await stripe.customers.create({ email: account.email, metadata: { account_id: account.accountId } }, { idempotencyKey: `customer:${account.accountId}` });
    return customer.id;
  }

  async function bankTransferCheckout(request: CheckoutRequest): Promise<ProviderCheckout> {
    const type = BANK_TRANSFER_TYPE[request.currency];
    if (!type) throw new Error(`no Stripe bank transfer in ${request.currency}`);
    const customer = request.customerRef ?? (await makeCustomer(request));
    const intent = await stripe.paymentIntents.create(
      {
        amount: request.amount,
        currency: request.currency.toLowerCase(),
        customer,
        description: request.packName,
        allowed_payment_method_types: ['customer_balance'],
        payment_method_data: { type: 'customer_balance' },
        payment_method_options: { customer_balance: { funding_type: 'bank_transfer', bank_transfer: type } },
        confirm: true,
        metadata: { checkout_id: request.checkoutId, account_id: request.accountId },
      },
      { idempotencyKey: `checkout:${request.checkoutId}` },
    );
    const instructions = intent.next_action?.display_bank_transfer_instructions;
    // Money already in the customer's balance pays at once: nothing to transfer, and the
    // succeeded event adds the credits (the checkout waits for it like for a transfer).
    if (!instructions && (intent.status === 'succeeded' || intent.status === 'processing')) {
      return { providerRef: intent.id, paymentRef: intent.id, url: request.successUrl, bankTransfer: null };
    }
    if (!instructions) throw new Error(`Stripe gave PaymentIntent ${intent.id} no bank transfer instructions (status ${intent.status})`);
    // Part of it may be paid from the balance already: what is left to send is what is shown.
    return {
      providerRef: intent.id,
      paymentRef: intent.id,
      url: instructions.hosted_instructions_url ?? request.successUrl,
      bankTransfer: bankTransferOf(instructions, instructions.amount_remaining ?? request.amount, request.currency),
    };
  }

  /** Stripe's event → ours. Only what checkouts need is read; everything else is acknowledged and ignored. */
  function toPaymentEvent(event: Stripe.Event): PaymentEvent {
    const base = { id: event.id, type: event.type };
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
      case 'checkout.session.async_payment_failed':
      case 'checkout.session.expired': {
        const session = event.data.object;
        const checkout = { checkoutId: session.metadata?.checkout_id ?? session.client_reference_id ?? null, providerRef: session.id };
        const paymentRef = idOf(session.payment_intent);
        if (event.type === 'checkout.session.expired') return { ...base, kind: 'failed', checkout, expired: true };
        if (event.type === 'checkout.session.async_payment_failed') return { ...base, kind: 'failed', checkout, expired: false };
        if (event.type === 'checkout.session.completed' && session.payment_status === 'unpaid') return { ...base, kind: 'awaiting_funds', checkout, paymentRef };
        const received = session.amount_total !== null && session.currency ? { amount: session.amount_total, currency: session.currency } : undefined;
        return { ...base, kind: 'paid', checkout, paymentRef, received };
      }
      case 'payment_intent.succeeded':
      case 'payment_intent.canceled':
      case 'payment_intent.payment_failed': {
        const intent = event.data.object;
        const checkoutId = intent.metadata?.checkout_id;
        if (!checkoutId) return { ...base, kind: 'ignored' };
        const checkout = { checkoutId, providerRef: null };
        if (event.type === 'payment_intent.succeeded') return { ...base, kind: 'paid', checkout, paymentRef: intent.id, received: { amount: intent.amount_received, currency: intent.currency } };
        // A declined card on a Checkout page can be tried again there: only a bank transfer's end is final.
        if (!intent.payment_method_types?.includes('customer_balance')) return { ...base, kind: 'ignored' };
        return { ...base, kind: 'failed', checkout, expired: false };
      }
      case 'charge.refunded': {
        const charge = event.data.object;
        const paymentRef = idOf(charge.payment_intent);
        return paymentRef ? { ...base, kind: 'refunded', paymentRef, refunded: charge.amount_refunded } : { ...base, kind: 'ignored' };
      }
      case 'charge.dispute.created':
      case 'charge.dispute.closed': {
        const dispute = event.data.object;
        const paymentRef = idOf(dispute.payment_intent);
        if (!paymentRef) return { ...base, kind: 'ignored' };
        if (event.type === 'charge.dispute.created') return { ...base, kind: 'disputed', paymentRef, disputeId: dispute.id, amount: dispute.amount };
        // An inquiry closed without a chargeback (`warning_closed`) kept the money, as a won dispute does.
        return { ...base, kind: 'dispute_closed', paymentRef, disputeId: dispute.id, amount: dispute.amount, won: dispute.status === 'won' || dispute.status === 'warning_closed' };
      }
      default:
        return { ...base, kind: 'ignored' };
    }
  }

  return {
    name: 'stripe',
    makeCustomer,

    async createCheckout(request) {
      return request.method === 'card' ? cardCheckout(request) : bankTransferCheckout(request);
    },

    async cancel(checkout) {
      if (checkout.method !== 'bank_transfer' || !checkout.providerRef) return true;
      try {
        await stripe.paymentIntents.cancel(checkout.providerRef);
        return true;
      } catch (error) {
        // Stripe refuses to cancel an intent no longer awaiting money. Already cancelled (say, in the
        // dashboard, its event lost) is what we wanted; otherwise it was paid, and its event settles the checkout.
        if (error instanceof StripeSdk.errors.StripeInvalidRequestError && error.code === 'payment_intent_unexpected_state') return error.payment_intent?.status === 'canceled';
        throw error;
      }
    },

    /** Verifies the signature against our clock (so a replay of an old event is refused) and reads the event. */
    parseEvent(rawBody, signature) {
      let event: Stripe.Event;
      try {
        // `receivedAt` is in milliseconds: the SDK divides it by 1000 before comparing it with the header's `t=` (seconds).
        event = stripe.webhooks.constructEvent(rawBody, signature ?? '', config.webhookSecret, SIGNATURE_TOLERANCE_SECONDS, undefined, clock.now().getTime());
      } catch (error) {
        throw new ProviderEventError(`The Stripe-Signature does not verify: ${(error as Error).message.split('\n')[0]}`, { cause: error });
      }
      // The SDK checks only that the signature is not too old; one dated ahead of our clock by
      // more than the tolerance is refused too (docs/payments.md: the tolerance is both ways).
      const signedAt = Number(/(?:^|,)\s*t=(\d+)/.exec(signature ?? '')?.[1]);
      if (signedAt * 1000 > clock.now().getTime() + SIGNATURE_TOLERANCE_SECONDS * 1000) {
        throw new ProviderEventError(`The Stripe-Signature is dated more than ${SIGNATURE_TOLERANCE_SECONDS} seconds ahead of this server's clock.`);
      }
      return toPaymentEvent(event);
    },
  };
}
