import type { Db } from '../../db/database.ts';
import type { Currency } from '../../lib/currencies.ts';
import { notFound } from '../../lib/errors.ts';
import { utcDay } from '../../lib/dates.ts';
import type { AccountsRepository } from '../accounts/accounts.repository.ts';
import type { CreditsRepository } from './credits.repository.ts';
import type { Balance } from './credits.schemas.ts';

/**
 * Today's private question of the account (one a day is free): the questions module answers it,
 * container.ts wires it. `tx` is the caller's transaction when there is one (an event's balance is
 * read inside the transaction that emits it).
 */
export type PrivateToday = (accountId: string, at: Date, tx?: Db) => Promise<{ freeQuestionToday: boolean; privateDeclaredAt?: string }>;

/** The key a balance is read for: its daily cap gives `capRemaining`. */
export interface BalanceKey {
  keyId: string;
  cap: number;
}

/**
 * The Balance of an account as `GET /v1/billing/balance` returns it, at `at`, in `tx` when given.
 * `key` is the calling key with a daily cap (null: `capRemaining` is null, as for a key without a
 * cap; events about the account use null, since no key is calling).
 */
export type BalanceView = (accountId: string, at: Date, key: BalanceKey | null, tx?: Db) => Promise<Balance>;

export function createBalanceView(deps: {
  repo: Pick<CreditsRepository, 'balance' | 'expiringLots' | 'spentToday'>;
  accounts: Pick<AccountsRepository, 'findAccount'>;
  privateToday: PrivateToday;
}): BalanceView {
  const { repo, accounts, privateToday } = deps;
  return async (accountId, at, key, tx) => {
    const extra = await privateToday(accountId, at, tx);
    const account = await accounts.findAccount(accountId, tx);
    if (!account) throw notFound('No such account.');
    const { available, reserved } = await repo.balance(accountId, at, tx);
    const expiring = await repo.expiringLots(accountId, at, tx);
    const capRemaining = key ? Math.max(0, key.cap - (await repo.spentToday(key.keyId, utcDay(at), tx))) : null;
    return {
      credits: available + reserved,
      reserved,
      expiring: expiring.map((e) => ({ credits: e.credits, expiresAt: e.expiresAt.toISOString() })),
      currency: account.currency as Currency,
      capRemaining,
      freeQuestionToday: extra.freeQuestionToday,
      ...(extra.privateDeclaredAt ? { privateDeclaredAt: extra.privateDeclaredAt } : {}),
      account: { id: account.id, name: account.name, kind: account.kind as 'person' | 'team' },
    };
  };
}
