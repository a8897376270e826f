import type { Currency } from '../../lib/currencies.ts';
import type { BankTransfer } from './billing.schemas.ts';

/**
 * What the checkout needs of a payment provider (docs/payments.md "Providers"): Stripe in
 * production (stripe-provider.ts), the built-in test provider in development (test-provider.ts).
 * A provider makes the place to pay, may cancel an awaited transfer, and turns what it reports
 * into PaymentEvents, which one service applies (payment-events.service.ts) whoever sent them.
 */
export interface CheckoutRequest {
  checkoutId: string;
  accountId: string;
  /** The buyer's address (receipts, the provider's customer record). */
  email: string;
  packName: string;
  credits: number;
  amount: number;
  currency: Currency;
  method: 'card' | 'bank_transfer';
  successUrl: string;
  cancelUrl: string;
  expiresAt: Date;
  /** The provider's customer for this account, when one was made before. */
  customerRef: string | null;
}

export interface ProviderCheckout {
  /** The provider's object for this checkout (a Checkout Session, a PaymentIntent). */
  providerRef: string;
  /** The payment refunds and disputes will name, when already known. */
  paymentRef: string | null;
  url: string;
  bankTransfer: BankTransfer | null;
}

/** Where a provider's event says its checkout is: our id (metadata) and/or the provider's object. */
export interface CheckoutLocator {
  checkoutId: string | null;
  providerRef: string | null;
}

/**
 * A provider's event, as the service applies it. `id` is the provider's event id: an event is
 * applied once, whatever number of times it is delivered (R8.4). `paymentRef` names the payment
 * for the refunds and disputes that come later.
 */
export type PaymentEvent = { id: string; type: string } & (
  /** `received`: what the provider says was paid (minor units, ISO currency), when it says; checked against the checkout before crediting. */
  | { kind: 'paid'; checkout: CheckoutLocator; paymentRef: string | null; received?: { amount: number; currency: string } }
  | { kind: 'awaiting_funds'; checkout: CheckoutLocator; paymentRef: string | null }
  | { kind: 'failed'; checkout: CheckoutLocator; expired: boolean }
  /** `refunded` is the payment's total refunded so far (minor units), not this refund alone: events may come in any order. */
  | { kind: 'refunded'; paymentRef: string; refunded: number }
  | { kind: 'disputed'; paymentRef: string; disputeId: string; amount: number }
  | { kind: 'dispute_closed'; paymentRef: string; disputeId: string; amount: number; won: boolean }
  | { kind: 'ignored' }
);

export interface PaymentProvider {
  readonly name: 'stripe' | 'test';
  /**
   * The provider's customer for an account, made when a payment method needs one (Stripe's bank
   * transfers). The checkout keeps it before asking for the payment, so a failed payment does not
   * lose it. Providers without customers leave this out.
   */
  makeCustomer?(account: { accountId: string; email: string }): Promise<string>;
  /** Where to pay. `request.customerRef` is set for methods that need a customer (see makeCustomer). */
  createCheckout(request: CheckoutRequest): Promise<ProviderCheckout>;
  /** Stops an awaited payment that ran out of time (so late money does not land on it); false when it can no longer be stopped (it was paid). */
  cancel(checkout: { providerRef: string | null; method: 'card' | 'bank_transfer' }): Promise<boolean>;
}

/** The provider's own message about an event it cannot verify or read (a bad signature): 400 to the sender, nothing changes. */
export class ProviderEventError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProviderEventError';
  }
}
