import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { InvitationsTable, MembershipRole } from '../../db/schema.ts';

export type InvitationRow = Selectable<InvitationsTable>;

export interface MemberRow {
  person_id: string;
  email: string;
  name: string | null;
  role: MembershipRole;
  created_at: Date;
  /** The person's language (the mail they are sent speaks it). */
  language: string;
}

/** An open invitation with what the invited person is shown: the team and who invited them. */
export interface InvitationForPersonRow extends InvitationRow {
  team_name: string;
  inviter_email: string;
  inviter_name: string | null;
}

/**
 * SQL of team membership and invitations. Every change to a team's members first locks the
 * team's account row (`lockAccount`): the one lock that keeps "the last owner cannot leave" true
 * when two owners act at once.
 */
export function createTeamsRepository(db: Db) {
  const open = (q: ReturnType<typeof invitations>, now: Date) => q.where('i.accepted_at', 'is', null).where('i.declined_at', 'is', null).where('i.revoked_at', 'is', null).where('i.expires_at', '>', now);
  const invitations = (tx: Db) => tx.selectFrom('invitations as i');

  return {
    async lockAccount(accountId: string, tx: Db): Promise<{ kind: 'person' | 'team'; name: string; language: string } | undefined> {
      return tx.selectFrom('accounts').select(['kind', 'name', 'language']).where('id', '=', accountId).forUpdate().executeTakeFirst();
    },

    async members(accountId: string, tx: Db = db): Promise<MemberRow[]> {
      return tx
        .selectFrom('memberships as m')
        .innerJoin('people as p', 'p.id', 'm.person_id')
        .select(['m.person_id', 'p.email', 'p.name', 'm.role', 'm.created_at', 'p.language'])
        .where('m.account_id', '=', accountId)
        .orderBy(sql`CASE m.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END`)
        .orderBy('p.email')
        .execute();
    },

    async owners(accountId: string, tx: Db): Promise<number> {
      const row = await tx.selectFrom('memberships').select(sql<number>`count(*)::int`.as('n')).where('account_id', '=', accountId).where('role', '=', 'owner').executeTakeFirstOrThrow();
      return row.n;
    },

    async setRole(accountId: string, personId: string, role: MembershipRole, tx: Db): Promise<void> {
      await tx.updateTable('memberships').set({ role }).where('account_id', '=', accountId).where('person_id', '=', personId).execute();
    },

    async removeMember(accountId: string, personId: string, tx: Db): Promise<void> {
      await tx.deleteFrom('memberships').where('account_id', '=', accountId).where('person_id', '=', personId).execute();
    },

    /** Ends the team's open invitation of an address (inviting again replaces it). */
    async revokeOpenInvitation(accountId: string, email: string, at: Date, tx: Db): Promise<void> {
      await tx
        .updateTable('invitations')
        .set({ revoked_at: at })
        .where('account_id', '=', accountId)
        .where('email', '=', email)
        .where('accepted_at', 'is', null)
        .where('declined_at', 'is', null)
        .where('revoked_at', 'is', null)
        .execute();
    },

    async insertInvitation(row: Insertable<InvitationsTable>, tx: Db): Promise<InvitationRow> {
      return tx.insertInto('invitations').values(row).returningAll().executeTakeFirstOrThrow();
    },

    async openInvitationsOf(accountId: string, now: Date, tx: Db = db): Promise<InvitationRow[]> {
      return open(invitations(tx), now).selectAll('i').where('i.account_id', '=', accountId).orderBy('i.created_at', 'desc').execute();
    },

    /** Open invitations to an address, with the team and the inviter. */
    async openInvitationsTo(email: string, now: Date, tx: Db = db): Promise<InvitationForPersonRow[]> {
      return open(invitations(tx), now)
        .innerJoin('accounts as a', 'a.id', 'i.account_id')
        .innerJoin('people as p', 'p.id', 'i.invited_by')
        .selectAll('i')
        .select(['a.name as team_name', 'p.email as inviter_email', 'p.name as inviter_name'])
        .where('i.email', '=', email)
        .orderBy('i.created_at', 'desc')
        .execute();
    },

    async lockInvitation(id: string, tx: Db): Promise<InvitationRow | undefined> {
      return tx.selectFrom('invitations').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    },

    async endInvitation(id: string, how: 'accepted_at' | 'declined_at' | 'revoked_at', at: Date, tx: Db): Promise<void> {
      await tx.updateTable('invitations').set({ [how]: at }).where('id', '=', id).execute();
    },
  };
}
export type TeamsRepository = ReturnType<typeof createTeamsRepository>;
