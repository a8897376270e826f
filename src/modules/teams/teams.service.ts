import type { Clock } from '../../lib/clock.ts';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { newId } from '../../lib/ids.ts';
import { AppError, notFound, validationError } from '../../lib/errors.ts';
import { MEMBER_ROLES, sessionOf, type Actor, type MemberRole, type SessionActor } from '../../lib/actor.ts';
import type { Currency } from '../../lib/currencies.ts';
import { addDays } from '../../lib/dates.ts';
import type { AccountsRepository } from '../accounts/accounts.repository.ts';
import type { PeopleRepository } from '../people/people.repository.ts';
import { displayName, membershipView } from '../people/people.service.ts';
import { invitationMail } from '../people/people-mail.ts';
import { normalizeEmail, PLAIN_EMAIL } from '../people/sign-in-codes.ts';
import type { Membership } from '../people/people.schemas.ts';
import type { Mailer } from '../mail/mail.types.ts';
import type { QuestionLanguage } from '../draft/question-types.ts';
import type { InvitationRow, MemberRow, TeamsRepository } from './teams.repository.ts';
import { TEAM_LIMITS, type Invitation, type InvitationForMe, type Member, type Members } from './teams.schemas.ts';

const rank = (role: MemberRole) => MEMBER_ROLES.indexOf(role);

const memberView = (row: MemberRow): Member => ({ personId: row.person_id, email: row.email, name: row.name, role: row.role, joinedAt: row.created_at.toISOString() });

const invitationView = (row: InvitationRow): Invitation => ({
  id: row.id,
  accountId: row.account_id,
  email: row.email,
  role: row.role,
  invitedBy: row.invited_by,
  createdAt: row.created_at.toISOString(),
  expiresAt: row.expires_at.toISOString(),
});

const lastOwner = () => new AppError('conflict', 'A team needs an owner: make someone else an owner before the last one leaves or steps down.', { reason: 'last_owner' });
const personalAccount = () => new AppError('conflict', 'A personal account has one member, its person; make a team to work with others.', { reason: 'personal_account' });
const notAllowed = (what: string) => new AppError('insufficient_scope', `Your role on this team does not allow you to ${what}.`);

/**
 * Team accounts (docs/teams.md "Roles"): a person makes a team (and owns it), invites people by
 * address, sets roles and removes members; the last owner cannot leave or step down. Members see
 * the team; admins also invite, withdraw invitations and remove members (not owners); owners also
 * change roles and remove anyone. Every change locks the team's account row first, so two owners
 * stepping down at once cannot leave it with none.
 */
export function createTeamsService(deps: {
  db: Db;
  repo: TeamsRepository;
  people: PeopleRepository;
  accounts: AccountsRepository;
  mailer: Mailer;
  clock: Clock;
  publicBaseUrl: string;
  log: { warn(obj: object, msg: string): void };
}) {
  const { db, repo, people, accounts, mailer, clock } = deps;

  /** The caller's membership of a team account, or 404 (an account they do not belong to is not there for them: R5.4). */
  async function myRole(session: SessionActor, accountId: string, tx?: Db): Promise<MemberRole> {
    const membership = await people.membership(accountId, session.personId, tx);
    if (!membership) throw notFound('No such account.');
    return membership.role;
  }

  /** An open invitation to the person's own address, locked; anything else is 404. */
  async function openInvitationFor(session: SessionActor, invitationId: string, tx: Db) {
    const person = await people.find(session.personId, tx);
    const row = await repo.lockInvitation(invitationId, tx);
    const now = clock.now();
    if (!person || !row || row.email !== person.email || row.accepted_at || row.declined_at || row.revoked_at || row.expires_at <= now) throw notFound('No such invitation.');
    return { person, row, now };
  }

  /** Runs a change to a team's members with its account row locked; refuses personal accounts. */
  async function changeTeam<T>(actor: Actor, accountId: string, work: (tx: Db, role: MemberRole, session: SessionActor, team: { name: string; language: string }) => Promise<T>): Promise<T> {
    const session = sessionOf(actor);
    return inTransaction(db, async (tx) => {
      const team = await repo.lockAccount(accountId, tx);
      const role = await myRole(session, accountId, tx);
      if (!team) throw notFound('No such account.');
      if (team.kind !== 'team') throw personalAccount();
      return work(tx, role, session, team);
    });
  }

  return {
    /** A new team account, owned by the person who makes it; its reply address (support, receipts) is theirs. */
    async create(actor: Actor, input: { name: string; currency: Currency; language?: QuestionLanguage }): Promise<Membership> {
      const session = sessionOf(actor);
      const name = input.name.trim();
      if (!name) throw validationError([{ field: 'name', code: 'required', message: 'Give the team a name.' }]);
      const person = await people.find(session.personId);
      if (!person) throw notFound('No such person.');
      const now = clock.now();
      return inTransaction(db, async (tx) => {
        const account = await accounts.insertAccount(
          { id: newId('account'), name: name.slice(0, TEAM_LIMITS.name), kind: 'team', currency: input.currency, language: input.language ?? person.language, email: person.email, created_at: now },
          tx,
        );
        await people.insertMembership({ account_id: account.id, person_id: person.id, role: 'owner', created_at: now }, tx);
        return membershipView({ account_id: account.id, role: 'owner', name: account.name, kind: 'team', currency: account.currency, created_at: now }, person.personal_account_id);
      });
    },

    async members(actor: Actor, accountId: string): Promise<Members> {
      await myRole(sessionOf(actor), accountId);
      const [members, invitations] = await Promise.all([repo.members(accountId), repo.openInvitationsOf(accountId, clock.now())]);
      return { members: members.map(memberView), invitations: invitations.map(invitationView) };
    },

    /** Invites an address (again: replaces its open invitation) and emails it; only owners invite owners. */
    async invite(actor: Actor, accountId: string, input: { email: string; role: MemberRole }): Promise<Invitation> {
      const email = normalizeEmail(input.email);
      if (!PLAIN_EMAIL.test(email)) throw validationError([{ field: 'email', code: 'invalid_format', message: 'Give one email address, like name@example.com.' }]);
      const { invitation, mail } = await changeTeam(actor, accountId, async (tx, role, session, team) => {
        if (rank(role) < rank('admin') || (input.role === 'owner' && role !== 'owner')) throw notAllowed(input.role === 'owner' ? 'invite owners' : 'invite people');
        if ((await repo.members(accountId, tx)).some((m) => m.email === email)) {
          throw new AppError('conflict', 'This address already belongs to a member of the team.', { reason: 'already_member' });
        }
        const now = clock.now();
        await repo.revokeOpenInvitation(accountId, email, now, tx);
        const row = await repo.insertInvitation(
          { id: newId('invitation'), account_id: accountId, email, role: input.role, invited_by: session.personId, created_at: now, expires_at: addDays(now, TEAM_LIMITS.invitationDays), accepted_at: null, declined_at: null, revoked_at: null },
          tx,
        );
        const inviter = await people.find(session.personId, tx);
        const invitee = await people.findByEmail(email, tx);
        return {
          invitation: invitationView(row),
          mail: invitationMail({ to: email, team: team.name, inviter: inviter ? displayName(inviter) : 'Someone', role: input.role, url: `${deps.publicBaseUrl}/app/invitations`, language: invitee?.language ?? team.language }),
        };
      });
      // After the commit: the invitation stands even if the mail fails; it is listed on the team page and shown at sign-in.
      await mailer.send(mail).catch((error: unknown) => deps.log.warn({ err: error, invitation: invitation.id }, 'invitation mail not sent'));
      return invitation;
    },

    async withdraw(actor: Actor, accountId: string, invitationId: string): Promise<void> {
      await changeTeam(actor, accountId, async (tx, role) => {
        if (rank(role) < rank('admin')) throw notAllowed('withdraw invitations');
        const row = await repo.lockInvitation(invitationId, tx);
        if (!row || row.account_id !== accountId || row.accepted_at || row.declined_at || row.revoked_at) throw notFound('No such invitation.');
        await repo.endInvitation(row.id, 'revoked_at', clock.now(), tx);
      });
    },

    /** Owners change roles; the last owner cannot step down. */
    async setRole(actor: Actor, accountId: string, personId: string, newRole: MemberRole): Promise<Member> {
      return changeTeam(actor, accountId, async (tx, role) => {
        if (role !== 'owner') throw notAllowed('change roles');
        const target = (await repo.members(accountId, tx)).find((m) => m.person_id === personId);
        if (!target) throw notFound('No such member.');
        if (target.role === 'owner' && newRole !== 'owner' && (await repo.owners(accountId, tx)) <= 1) throw lastOwner();
        await repo.setRole(accountId, personId, newRole, tx);
        return memberView({ ...target, role: newRole });
      });
    },

    /** Removes a member, or with one's own id leaves; admins remove members and admins, owners anyone; the last owner stays. */
    async remove(actor: Actor, accountId: string, personId: string): Promise<void> {
      await changeTeam(actor, accountId, async (tx, role, session) => {
        const target = (await repo.members(accountId, tx)).find((m) => m.person_id === personId);
        if (!target) throw notFound('No such member.');
        const leaving = personId === session.personId;
        if (!leaving && (rank(role) < rank('admin') || (target.role === 'owner' && role !== 'owner'))) throw notAllowed('remove this member');
        if (target.role === 'owner' && (await repo.owners(accountId, tx)) <= 1) throw lastOwner();
        await repo.removeMember(accountId, personId, tx);
      });
    },

    /** Invitations waiting for the signed-in person (to their address). */
    async invitationsForMe(actor: Actor): Promise<InvitationForMe[]> {
      const person = await people.find(sessionOf(actor).personId);
      if (!person) throw notFound('No such person.');
      const rows = await repo.openInvitationsTo(person.email, clock.now());
      return rows.map((row) => ({
        id: row.id,
        accountId: row.account_id,
        teamName: row.team_name,
        role: row.role,
        invitedBy: { id: row.invited_by, name: displayName({ name: row.inviter_name, email: row.inviter_email }) },
        expiresAt: row.expires_at.toISOString(),
      }));
    },

    /** Joins the team of an invitation to the person's own address; anyone else's invitation is 404. */
    async accept(actor: Actor, invitationId: string): Promise<Membership> {
      return inTransaction(db, async (tx) => {
        const { person, row, now } = await openInvitationFor(sessionOf(actor), invitationId, tx);
        await repo.endInvitation(row.id, 'accepted_at', now, tx);
        await people.insertMembership({ account_id: row.account_id, person_id: person.id, role: row.role, created_at: now }, tx);
        const joined = (await people.accountsOf(person, tx)).find((a) => a.account_id === row.account_id);
        if (!joined) throw new Error(`membership of ${row.account_id} was not written`);
        return membershipView(joined, person.personal_account_id);
      });
    },

    async decline(actor: Actor, invitationId: string): Promise<void> {
      await inTransaction(db, async (tx) => {
        const { row, now } = await openInvitationFor(sessionOf(actor), invitationId, tx);
        await repo.endInvitation(row.id, 'declined_at', now, tx);
      });
    },
  };
}
export type TeamsService = ReturnType<typeof createTeamsService>;
