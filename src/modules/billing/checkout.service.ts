import type { Clock } from '../../lib/clock.ts';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { newId } from '../../lib/ids.ts';
import { AppError, notFound, validationError } from '../../lib/errors.ts';
import { sessionOf, type Actor } from '../../lib/actor.ts';
import { formatMoney, type Currency } from '../../lib/currencies.ts';
import { DAY_MS } from '../../lib/dates.ts';
import type { AccountsRepository } from '../accounts/accounts.repository.ts';
import type { PeopleRepository } from '../people/people.repository.ts';
import { findCreditPack } from '../credits/credit-packs.ts';
import type { PurchaseLedger } from '../credits/credits.purchases.ts';
import type { CheckoutRow, CheckoutsRepository } from './checkouts.repository.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { disputedAmount } from './disputes.ts';
import type { BankTransfer, Checkout, CheckoutBody } from './billing.schemas.ts';

/** How long a checkout waits for its money: an hour on a card page, a week for a bank transfer (docs/payments.md). */
export const CHECKOUT_WINDOW_MS = { card: 3_600_000, bank_transfer: 7 * DAY_MS } as const;
export const DEFAULT_RETURN_PATH = '/app/credits';

const packName = (id: string) => id.charAt(0).toUpperCase() + id.slice(1);

/** The ledger title of a purchase, the same words whether the row starts pending or available. */
export function purchaseTitle(row: Pick<CheckoutRow, 'pack' | 'credits' | 'amount' | 'currency' | 'method' | 'bank_transfer'>): string {
  const paid = formatMoney(row.amount, row.currency);
  const how = row.method === 'card' ? `${paid} by card` : `bank transfer of ${paid}${row.bank_transfer?.reference ? `, reference ${row.bank_transfer.reference}` : ''}`;
  return `${packName(row.pack)} pack: ${row.credits.toLocaleString('en-GB')} credits (${how})`;
}

/**
 * Starting and reading checkouts (spec "Credits": POST /v1/billing/checkout, portal session only;
 * docs/payments.md). A signed-in member of the account picks a pack, its currency (the account's)
 * and a method; the provider makes the place to pay. Nothing moves until the provider's events say
 * so (payment-events.service.ts), except that a bank transfer's instructions write its `pending`
 * ledger row, so the ledger shows what is awaited.
 */
export function createCheckoutService(deps: {
  db: Db;
  repo: CheckoutsRepository;
  accounts: AccountsRepository;
  people: PeopleRepository;
  purchases: PurchaseLedger;
  provider: PaymentProvider;
  clock: Clock;
  publicBaseUrl: string;
}) {
  const { db, repo, accounts, people, purchases, provider, clock, publicBaseUrl } = deps;

  const returnUrl = (row: Pick<CheckoutRow, 'id' | 'return_path'>) => `${publicBaseUrl}${row.return_path ?? DEFAULT_RETURN_PATH}?checkout=${row.id}`;

  /** `takenBack`: the checkout's clawbacks net of what won disputes gave back (the ledger's, not the row's: held credits are taken as they come back, after the payment's last event). */
  function view(row: CheckoutRow, takenBack: number): Checkout {
    return {
      id: row.id,
      accountId: row.account_id,
      status: row.status,
      provider: row.provider,
      method: row.method,
      pack: row.pack,
      credits: row.credits,
      amount: row.amount,
      currency: row.currency,
      url: row.url,
      bankTransfer: (row.bank_transfer as BankTransfer | null) ?? null,
      returnUrl: returnUrl(row),
      expiresAt: row.expires_at.toISOString(),
      createdAt: row.created_at.toISOString(),
      paidAt: row.paid_at?.toISOString() ?? null,
      refundedAmount: row.refunded_amount,
      disputedAmount: disputedAmount(row.disputes),
      creditsTakenBack: takenBack,
    };
  }

  /** The view with what was taken back read from the ledger, only for a payment refunded or disputed (nothing can have been taken back otherwise). */
  async function viewOf(row: CheckoutRow, tx: Db = db): Promise<Checkout> {
    const touched = row.refunded_amount > 0 || Object.keys(row.disputes).length > 0;
    return view(row, touched ? await purchases.takenFor(row.account_id, row.id, tx) : 0);
  }

  return {
    viewOf,

    async start(actor: Actor, body: CheckoutBody): Promise<Checkout> {
      const session = sessionOf(actor);
      const pack = findCreditPack(body.pack);
      const account = await accounts.findAccount(actor.accountId);
      if (!account) throw notFound('No such account.');
      const problems = [];
      if (!pack) problems.push({ field: 'pack', code: 'unknown_value' as const, message: `No pack "${body.pack}"; GET /v1/config lists them in creditPacks.` });
      if (body.currency !== account.currency) {
        problems.push({ field: 'currency', code: 'not_allowed' as const, message: `This account's credits are in ${account.currency} (1 credit = 1 minor unit of it); pay in ${account.currency}.` });
      }
      if (body.method === 'bank_transfer' && body.currency === 'CAD') {
        problems.push({ field: 'method', code: 'not_allowed' as const, message: 'Bank transfers are not taken in CAD; pay by card.' });
      }
      if (problems.length || !pack) throw validationError(problems);
      const person = await people.find(session.personId);
      if (!person) throw notFound('No such person.');

      const now = clock.now();
      const currency = account.currency as Currency;
      const row = await repo.insert({
        id: newId('checkout'),
        account_id: account.id,
        person_id: person.id,
        provider: provider.name,
        provider_ref: null,
        payment_ref: null,
        method: body.method,
        pack: pack.id,
        credits: pack.credits,
        amount: pack.prices[currency],
        currency,
        status: 'open',
        url: null,
        bank_transfer: null,
        return_path: body.returnPath ?? null,
        created_at: now,
        expires_at: new Date(now.getTime() + CHECKOUT_WINDOW_MS[body.method]),
        paid_at: null,
      });

      // The provider is called outside any transaction (never hold one across the network).
      let made;
      try {
        // A method that needs the provider's customer gets it first, and it is kept at once.
        let customerRef = await repo.customer(account.id, provider.name);
        if (!customerRef && body.method === 'bank_transfer' && provider.makeCustomer) {
          customerRef = await provider.makeCustomer({ accountId: account.id, email: person.email });
          await repo.saveCustomer(account.id, provider.name, customerRef);
        }
        made = await provider.createCheckout({
          checkoutId: row.id,
          accountId: account.id,
          email: person.email,
          packName: `${packName(pack.id)} pack: ${pack.credits.toLocaleString('en-GB')} Headcount credits`,
          credits: pack.credits,
          amount: row.amount,
          currency,
          method: body.method,
          successUrl: returnUrl(row),
          cancelUrl: returnUrl(row),
          expiresAt: row.expires_at,
          customerRef,
        });
      } catch (error) {
        await repo.update(row.id, { status: 'failed' });
        throw new AppError('service_unavailable', 'The payment provider could not be reached just now; nothing was charged. Try again in a minute.', undefined, { 'retry-after': '30' }, { cause: error });
      }

      const updated = await inTransaction(db, async (tx) => {
        const awaited = body.method === 'bank_transfer';
        const changed = await repo.update(
          row.id,
          { provider_ref: made.providerRef, payment_ref: made.paymentRef, url: made.url, bank_transfer: made.bankTransfer ? JSON.stringify(made.bankTransfer) : null, ...(awaited ? { status: 'pending' as const } : {}) },
          tx,
        );
        if (!changed) throw new Error(`checkout ${row.id} vanished`);
        if (awaited) {
          await purchases.recordPending({ accountId: account.id, checkoutId: row.id, credits: row.credits, title: purchaseTitle(changed), by: person.email, at: now }, tx);
        }
        return changed;
      });
      return view(updated, 0);
    },

    async get(actor: Actor, id: string): Promise<Checkout> {
      sessionOf(actor);
      const row = await repo.find(actor.accountId, id);
      if (!row) throw notFound('No such checkout.');
      return viewOf(row);
    },

    /** A checkout by its id alone, for the test provider's page (its address is the capability); null when there is none. */
    async byId(id: string): Promise<Checkout | null> {
      const row = await repo.findAny(id);
      return row ? viewOf(row) : null;
    },

    async recent(actor: Actor, limit = 10): Promise<Checkout[]> {
      sessionOf(actor);
      return Promise.all((await repo.recent(actor.accountId, limit)).map((row) => viewOf(row)));
    },
  };
}
export type CheckoutService = ReturnType<typeof createCheckoutService>;
