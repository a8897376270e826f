import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { MembershipRole, MembershipsTable, PeopleTable } from '../../db/schema.ts';

export type PersonRow = Selectable<PeopleTable>;
export type MembershipRow = Selectable<MembershipsTable>;

/** A membership with what a list shows of its account. */
export interface AccountMembershipRow {
  account_id: string;
  role: MembershipRole;
  name: string;
  kind: 'person' | 'team';
  currency: 'GBP' | 'USD' | 'EUR' | 'CAD';
  created_at: Date;
}

/** SQL of people and of the accounts they belong to (memberships). */
export function createPeopleRepository(db: Db) {
  return {
    async findByEmail(email: string, tx: Db = db): Promise<PersonRow | undefined> {
      return tx.selectFrom('people').selectAll().where('email', '=', email).executeTakeFirst();
    },

    async find(id: string, tx: Db = db): Promise<PersonRow | undefined> {
      return tx.selectFrom('people').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Inserts a person unless the address already has one (two first sign-ins racing): then returns nothing. */
    async insert(row: Insertable<PeopleTable>, tx: Db): Promise<PersonRow | undefined> {
      return tx.insertInto('people').values(row).onConflict((oc) => oc.column('email').doNothing()).returningAll().executeTakeFirst();
    },

    async update(id: string, changes: { name?: string | null; language?: string; last_sign_in_at?: Date }, tx: Db = db): Promise<PersonRow | undefined> {
      return tx.updateTable('people').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
    },

    async insertMembership(row: Insertable<MembershipsTable>, tx: Db = db): Promise<void> {
      await tx.insertInto('memberships').values(row).onConflict((oc) => oc.columns(['account_id', 'person_id']).doNothing()).execute();
    },

    /** The accounts a person belongs to: their personal account first, then teams by name. */
    async accountsOf(person: Pick<PersonRow, 'id' | 'personal_account_id'>, tx: Db = db): Promise<AccountMembershipRow[]> {
      const rows = await tx
        .selectFrom('memberships as m')
        .innerJoin('accounts as a', 'a.id', 'm.account_id')
        .select(['m.account_id', 'm.role', 'a.name', 'a.kind', 'a.currency', 'a.created_at'])
        .where('m.person_id', '=', person.id)
        .orderBy('a.name')
        .orderBy('a.id')
        .execute();
      return rows.sort((x, y) => Number(y.account_id === person.personal_account_id) - Number(x.account_id === person.personal_account_id));
    },

    async membership(accountId: string, personId: string, tx: Db = db): Promise<MembershipRow | undefined> {
      return tx.selectFrom('memberships').selectAll().where('account_id', '=', accountId).where('person_id', '=', personId).executeTakeFirst();
    },
  };
}
export type PeopleRepository = ReturnType<typeof createPeopleRepository>;
