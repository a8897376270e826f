import { Type, type Static } from '@sinclair/typebox';
import { Closed, DateTime, Nullable, RefOf, StringEnum } from '../../lib/typebox.ts';
import { CurrencySchema } from '../../lib/currencies.ts';
import { MEMBER_ROLES } from '../../lib/actor.ts';
import { QUESTION_LANGUAGES } from '../draft/question-types.ts';

/** People, their sessions and the accounts they belong to (docs/portal.md); extensions: the spec shows none of them. */
export const LanguageSchema = StringEnum(QUESTION_LANGUAGES, { description: 'One of the eight languages the portal and the answer page speak.' });

export const PersonSchema = Closed(
  {
    id: Type.String({ description: 'per_…' }),
    email: Type.String({ format: 'email', description: 'The address the person signs in with, lower-cased.' }),
    name: Nullable(Type.String({ maxLength: 80 }), { description: 'How the person is shown to their teams and in `askedBy`; null shows the address.' }),
    language: LanguageSchema,
    personalAccountId: Type.String({ description: 'The account made at the first sign-in (kind `person`); the API acts for it unless told otherwise.' }),
    createdAt: DateTime(),
  },
  { $id: 'Person' },
);
export type Person = Static<typeof PersonSchema>;

export const MembershipSchema = Closed(
  {
    accountId: Type.String(),
    name: Type.String(),
    kind: StringEnum(['person', 'team']),
    currency: CurrencySchema,
    role: StringEnum(MEMBER_ROLES, { description: 'member: asks and reads; admin: also keys, invitations and members; owner: also roles.' }),
    personal: Type.Boolean({ description: 'The person\'s own account.' }),
  },
  { $id: 'Membership', description: 'An account a person belongs to, and their role on it.' },
);
export type Membership = Static<typeof MembershipSchema>;

export const SessionSchema = Closed(
  {
    id: Type.String({ description: 'ses_…: names the session in a list and to revoke it; never the token.' }),
    createdAt: DateTime({ description: 'When the person signed in.' }),
    lastSeenAt: DateTime(),
    expiresAt: DateTime({ description: 'When the session ends unless it is used again (idle limit), never later than its absolute end.' }),
    userAgent: Nullable(Type.String()),
    ip: Nullable(Type.String()),
    current: Type.Boolean({ description: 'The session this request came with.' }),
  },
  { $id: 'Session' },
);
export type SessionView = Static<typeof SessionSchema>;

export const SignInBodySchema = Closed({
  email: Type.String({ format: 'email', minLength: 3, maxLength: 254 }),
  language: Type.Optional(LanguageSchema),
});

export const SignInStartedSchema = Closed({
  ok: Type.Literal(true),
  expiresInSeconds: Type.Integer({ description: 'How long the code (and the link in the same email) works.' }),
});

export const VerifyBodySchema = Closed({
  email: Type.String({ format: 'email', minLength: 3, maxLength: 254 }),
  code: Type.String({ minLength: 6, maxLength: 12, description: 'The six digits from the email (spaces are ignored).' }),
});

export const SignedInSchema = Closed({
  token: Type.String({ description: 'The session\'s bearer token (hc_ses_…), shown only here: send it as `Authorization: Bearer <token>`.' }),
  session: RefOf(SessionSchema),
  person: RefOf(PersonSchema),
  accounts: Type.Array(RefOf(MembershipSchema)),
  created: Type.Boolean({ description: 'True when this sign-in created the person and their personal account.' }),
});
export type SignedIn = Static<typeof SignedInSchema>;

export const MeSchema = Closed({
  person: RefOf(PersonSchema),
  accounts: Type.Array(RefOf(MembershipSchema)),
  actingAccountId: Type.String({ description: 'The account this request acted for (the Headcount-Account header, else the personal account).' }),
});
export type Me = Static<typeof MeSchema>;

export const ProfileBodySchema = Closed({
  name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 80 }))),
  language: Type.Optional(LanguageSchema),
});
