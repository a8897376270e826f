import { Type, type Static } from '@sinclair/typebox';
import { Closed, DateTime, Nullable, RefOf, StringEnum } from '../../lib/typebox.ts';
import { CurrencySchema } from '../../lib/currencies.ts';
import { MEMBER_ROLES } from '../../lib/actor.ts';
import { LanguageSchema } from '../people/people.schemas.ts';

/** Team accounts, their members and invitations (docs/teams.md); extensions: the spec shows none of them. */
const Role = () => StringEnum(MEMBER_ROLES);

export const MemberSchema = Closed(
  {
    personId: Type.String(),
    email: Type.String(),
    name: Nullable(Type.String()),
    role: Role(),
    joinedAt: DateTime(),
  },
  { $id: 'Member' },
);
export type Member = Static<typeof MemberSchema>;

export const InvitationSchema = Closed(
  {
    id: Type.String({ description: 'inv_…' }),
    accountId: Type.String(),
    email: Type.String({ description: 'The address invited; the invitation is for the person who signs in with it.' }),
    role: Role(),
    invitedBy: Type.String({ description: 'The person (per_…) who sent it.' }),
    createdAt: DateTime(),
    expiresAt: DateTime(),
  },
  { $id: 'Invitation' },
);
export type Invitation = Static<typeof InvitationSchema>;

export const InvitationForMeSchema = Closed(
  {
    id: Type.String(),
    accountId: Type.String(),
    teamName: Type.String(),
    role: Role(),
    invitedBy: Closed({ id: Type.String(), name: Type.String({ description: 'Their name, else their address.' }) }),
    expiresAt: DateTime(),
  },
  { $id: 'InvitationForMe' },
);
export type InvitationForMe = Static<typeof InvitationForMeSchema>;

export const TEAM_LIMITS = { name: 80, invitationDays: 14 } as const;

export const CreateTeamBodySchema = Closed({
  name: Type.String({ minLength: 1, maxLength: TEAM_LIMITS.name }),
  currency: CurrencySchema,
  language: Type.Optional(LanguageSchema),
});

export const InviteBodySchema = Closed({
  email: Type.String({ format: 'email', minLength: 3, maxLength: 254 }),
  role: Role(),
});

export const RoleBodySchema = Closed({ role: Role() });

export const MembersSchema = Closed({
  members: Type.Array(RefOf(MemberSchema)),
  invitations: Type.Array(RefOf(InvitationSchema), { description: 'Invitations not yet accepted, declined, withdrawn or expired.' }),
});
export type Members = Static<typeof MembersSchema>;

export const AccountAndPersonParams = Closed({
  id: Type.String({ pattern: '^[A-Za-z0-9_]{1,64}$', description: 'The team account, acc_…' }),
  personId: Type.String({ pattern: '^[A-Za-z0-9_]{1,64}$', description: 'The member, per_…' }),
});

export const AccountAndInvitationParams = Closed({
  id: Type.String({ pattern: '^[A-Za-z0-9_]{1,64}$', description: 'The team account, acc_…' }),
  invitationId: Type.String({ pattern: '^[A-Za-z0-9_]{1,64}$', description: 'inv_…' }),
});
