import { Type, type Static } from '@sinclair/typebox';
import { Closed, DateTime, Nullable, RefOf, StringEnum } from '../../lib/typebox.ts';
import { CurrencySchema } from '../../lib/currencies.ts';

/** Buying credits (spec "Credits": POST /v1/billing/checkout; its response is "not shown": docs/payments.md designs it). */
export const PAYMENT_METHODS = ['card', 'bank_transfer'] as const;
export const CHECKOUT_STATUSES = ['open', 'pending', 'paid', 'failed', 'expired'] as const;

/** The spec's returnPath: `/app` followed by optional path segments of word characters, hyphens and slashes. */
export const RETURN_PATH = '^/app(/[\\w\\-/]*)?$';

export const CheckoutBodySchema = Closed({
  pack: Type.String({ minLength: 1, maxLength: 40, description: 'A pack id from GET /v1/config `creditPacks` (e.g. `standard`).' }),
  currency: CurrencySchema,
  method: StringEnum(PAYMENT_METHODS),
  returnPath: Type.Optional(Type.String({ pattern: RETURN_PATH, maxLength: 200, description: 'Where the portal takes the person after paying; default `/app/credits`.' })),
});
export type CheckoutBody = Static<typeof CheckoutBodySchema>;

export const BankTransferSchema = Closed(
  {
    payee: Type.String({ description: 'The account holder to pay.' }),
    reference: Type.String({ description: 'Put this in the transfer\'s reference so the payment finds its checkout.' }),
    amount: Type.Integer({ description: 'Minor units (pence, cents).' }),
    currency: CurrencySchema,
    sortCode: Type.Optional(Type.String()),
    accountNumber: Type.Optional(Type.String()),
    iban: Type.Optional(Type.String()),
    bic: Type.Optional(Type.String()),
    routingNumber: Type.Optional(Type.String()),
    bankName: Type.Optional(Type.String()),
  },
  { $id: 'BankTransfer', description: 'Where to send a bank transfer: the fields of the payee\'s account that apply to the currency (sort code and account number for GBP, IBAN and BIC for EUR, routing and account number for USD).' },
);
export type BankTransfer = Static<typeof BankTransferSchema>;

export const CheckoutSchema = Closed(
  {
    id: Type.String({ description: 'chk_…' }),
    accountId: Type.String(),
    status: StringEnum(CHECKOUT_STATUSES, {
      description: '`open`: waiting for payment; `pending`: a bank transfer is awaited (its ledger row is pending); `paid`: the credits are in; `failed`: declined or given up; `expired`: not paid in time.',
    }),
    provider: StringEnum(['stripe', 'test'], { description: '`test` is the built-in test provider (development only: no money moves).' }),
    method: StringEnum(PAYMENT_METHODS),
    pack: Type.String(),
    credits: Type.Integer({ minimum: 1 }),
    amount: Type.Integer({ minimum: 1, description: 'What is paid, in minor units of `currency`.' }),
    currency: CurrencySchema,
    url: Nullable(Type.String({ format: 'uri' }), { description: 'Where to pay: the provider\'s checkout page, or its page of transfer instructions.' }),
    bankTransfer: Nullable(RefOf(BankTransferSchema), { description: 'For `bank_transfer`: the payee details and reference; null for cards.' }),
    returnUrl: Type.String({ format: 'uri', description: 'Where the provider sends the person back to.' }),
    expiresAt: DateTime({ description: 'Pay before this (an hour for cards, seven days for a bank transfer).' }),
    createdAt: DateTime(),
    paidAt: Nullable(DateTime()),
    refundedAmount: Type.Integer({ minimum: 0, description: 'What the provider refunded of `amount` so far, in minor units (a paid checkout keeps `status` `paid`).' }),
    disputedAmount: Type.Integer({ minimum: 0, description: 'What open or lost disputes (chargebacks) of the payment hold, in minor units; a won dispute counts no more.' }),
    creditsTakenBack: Type.Integer({ minimum: 0, description: 'Credits taken back for refunds and disputes so far (the `clawback` rows of the ledger). Credits that open questions hold are taken as those questions give them back (docs/payments.md).' }),
  },
  { $id: 'Checkout' },
);
export type Checkout = Static<typeof CheckoutSchema>;
