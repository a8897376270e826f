import { Type, type Static } from '@sinclair/typebox';
import { Closed, DateTime, Nullable, StringEnum } from '../../lib/typebox.ts';
import { CurrencySchema } from '../../lib/currencies.ts';


export const BalanceSchema = Closed(
  {
    credits: Type.Integer({ description: 'Credits held, including those reserved by live questions.' }),
    reserved: Type.Integer({ minimum: 0, description: 'Held by live questions.' }),
    expiring: Type.Array(Closed({ credits: Type.Integer({ minimum: 0 }), expiresAt: DateTime() })),
    currency: CurrencySchema,
    capRemaining: Nullable(Type.Integer({ minimum: 0, description: "What is left today under the calling key's daily cap; null when the key has none." })),
    freeQuestionToday: Type.Boolean(),
    privateDeclaredAt: Type.Optional(DateTime()),
    account: Type.Optional(Closed({ id: Type.String(), name: Type.String(), kind: StringEnum(['person', 'team']) }, { description: 'Extension: the account this balance is of, so a credential can tell which account it acts for (a personal account, or a team).' })),
  },
  { $id: 'Balance' },
);
export type Balance = Static<typeof BalanceSchema>;

export const LEDGER_KINDS = [
  'purchase', 'ask', 'refund', 'say', 'bonus', 'referral', 'payout', 'payout_returned', 'fee', 'expiry', 'clawback', 'adjustment', 'tier2_fee', 'not_paid',
] as const;
export const LEDGER_STATES = ['pending', 'available', 'in_flight', 'paid', 'reversed', 'not_paid'] as const;

export const LedgerRowSchema = Closed(
  {
    id: Type.String(),
    at: DateTime(),
    title: Type.String({ description: 'What happened, in words a person reads.' }),
    kind: StringEnum(LEDGER_KINDS),
    state: StringEnum(LEDGER_STATES),
    amount: Type.Integer({ description: 'Credits; negative when they leave the balance.' }),
    ref: Nullable(Type.String()),
    notPaid: Type.Optional(
      Nullable(
        Closed({
          id: Type.String(),
          source: StringEnum(['rejected', 'clawback']),
          reason: StringEnum(['too_fast', 'repeat', 'check_question', 'automated', 'linked_accounts', 'shared_payout_method', 'confirmed_fraud']),
          amount: Type.Integer(),
          status: StringEnum(['not_paid', 'appealed', 'upheld', 'not_upheld']),
          appealBy: Nullable(Type.String()),
          decisionBy: Nullable(Type.String()),
        }),
      ),
    ),
    by: Type.Optional(Nullable(Type.String())),
    releaseAt: Type.Optional(Nullable(DateTime())),
  },
  { $id: 'LedgerRow' },
);
export type LedgerRow = Static<typeof LedgerRowSchema>;

/** A pack of credits for sale (docs/credits.md "Credit packs"); GET /v1/config lists them (extension). */
export const CreditPackSchema = Closed({
  id: Type.String({ pattern: '^[a-z0-9_]{1,40}$', description: 'The pack, as POST /v1/billing/checkout takes it in `pack`.' }),
  credits: Type.Integer({ minimum: 1, description: 'Credits the pack adds (1 credit = 1 penny).' }),
  prices: Closed(
    { GBP: Type.Integer({ minimum: 1 }), USD: Type.Integer({ minimum: 1 }), EUR: Type.Integer({ minimum: 1 }), CAD: Type.Integer({ minimum: 1 }) },
    { description: 'What the pack costs in each currency, in minor units (pence, cents). A credit is one minor unit of the account\'s currency.' },
  ),
  validForDays: Type.Integer({ minimum: 1, description: 'Bought credits expire this many days after the payment is confirmed.' }),
});
export type CreditPack = Static<typeof CreditPackSchema>;


/** The most `lowCreditsThreshold` can be: 10,000,000 credits (£100,000). */
export const MAX_LOW_CREDITS_THRESHOLD = 10_000_000;

const LowCreditsThreshold = Type.Integer({
  minimum: 0,
  maximum: MAX_LOW_CREDITS_THRESHOLD,
  description:
    'The `credits.low` webhook event is sent when an ask, added heads or expiry takes the credits the account can spend (`credits − reserved`) from at least this many to fewer; once per crossing. 0: never. Default 1000.',
});

/** Extension: the account's billing alerts (docs/credits.md "Low-credit alert"). */
export const BillingAlertsSchema = Closed({ lowCreditsThreshold: LowCreditsThreshold }, { $id: 'BillingAlerts', description: "Extension: when the account is warned about its credits (webhook events)." });
export type BillingAlerts = Static<typeof BillingAlertsSchema>;

export const BillingAlertsBodySchema = Closed({ lowCreditsThreshold: LowCreditsThreshold });
export type BillingAlertsBody = Static<typeof BillingAlertsBodySchema>;
