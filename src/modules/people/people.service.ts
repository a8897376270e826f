import type { Clock } from '../../lib/clock.ts';
import type { Db } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';
import { notFound } from '../../lib/errors.ts';
import { sessionOf, type Actor } from '../../lib/actor.ts';
import type { Currency } from '../../lib/currencies.ts';
import type { AccountsRepository } from '../accounts/accounts.repository.ts';
import type { AccountMembershipRow, PeopleRepository, PersonRow } from './people.repository.ts';
import type { Me, Membership, Person } from './people.schemas.ts';
import type { QuestionLanguage } from '../draft/question-types.ts';

export const personView = (row: PersonRow): Person => ({
  id: row.id,
  email: row.email,
  name: row.name,
  language: row.language as QuestionLanguage,
  personalAccountId: row.personal_account_id,
  createdAt: row.created_at.toISOString(),
});

export const membershipView = (row: AccountMembershipRow, personalAccountId: string): Membership => ({
  accountId: row.account_id,
  name: row.name,
  kind: row.kind,
  currency: row.currency,
  role: row.role,
  personal: row.account_id === personalAccountId,
});

/** How a person is shown to others (teams, `askedBy`): their name, else their address. */
export const displayName = (person: Pick<PersonRow, 'name' | 'email'>): string => person.name ?? person.email;

/**
 * People and the accounts they belong to (docs/portal.md). The first sign-in of an address makes
 * the person, their personal account (kind `person`, named after the address) and their owner
 * membership of it, in the sign-in's transaction.
 */
export function createPeopleService(deps: { repo: PeopleRepository; accounts: AccountsRepository; clock: Clock }) {
  const { repo, accounts, clock } = deps;

  async function accountsOf(person: PersonRow, tx?: Db): Promise<Membership[]> {
    return (await repo.accountsOf(person, tx)).map((row) => membershipView(row, person.personal_account_id));
  }

  return {
    accountsOf,

    /** The person with this address, made with their personal account if they have none yet (in `tx`). */
    async findOrCreate(email: string, first: { language: QuestionLanguage; currency: Currency }, tx: Db): Promise<{ person: PersonRow; created: boolean }> {
      const existing = await repo.findByEmail(email, tx);
      if (existing) return { person: existing, created: false };
      const now = clock.now();
      const account = await accounts.insertAccount(
        { id: newId('account'), name: email.slice(0, 120), kind: 'person', currency: first.currency, language: first.language, email, created_at: now },
        tx,
      );
      const person = await repo.insert({ id: newId('person'), email, name: null, language: first.language, personal_account_id: account.id, created_at: now, last_sign_in_at: null }, tx);
      // Two first sign-ins of one address at once: the unique address lets one insert win; the
      // other's transaction is retried by inTransaction's caller and then finds the person.
      if (!person) throw new Error(`a person with ${email} was made concurrently`);
      await repo.insertMembership({ account_id: account.id, person_id: person.id, role: 'owner', created_at: now }, tx);
      return { person, created: true };
    },

    async me(actor: Actor): Promise<Me> {
      const session = sessionOf(actor);
      const person = await repo.find(session.personId);
      if (!person) throw notFound('No such person.');
      return { person: personView(person), accounts: await accountsOf(person), actingAccountId: actor.accountId };
    },

    async person(actor: Actor): Promise<PersonRow> {
      const person = await repo.find(sessionOf(actor).personId);
      if (!person) throw notFound('No such person.');
      return person;
    },

    /** A person's own name (shown to their teams and in `askedBy`) and language (the portal's and their mail's). */
    async updateProfile(actor: Actor, changes: { name?: string | null; language?: QuestionLanguage }): Promise<Person> {
      const session = sessionOf(actor);
      const name = changes.name === undefined ? undefined : changes.name === null ? null : changes.name.trim() || null;
      const row = await repo.update(session.personId, { ...(name !== undefined ? { name } : {}), ...(changes.language ? { language: changes.language } : {}) });
      if (!row) throw notFound('No such person.');
      return personView(row);
    },
  };
}
export type PeopleService = ReturnType<typeof createPeopleService>;
