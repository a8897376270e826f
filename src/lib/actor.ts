import { AppError } from './errors.ts';

/** The scopes of the spec ("Authentication"). */
export const SCOPES = ['questions:read', 'questions:write', 'templates:read', 'account:read'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/**
 * A person's role on an account (docs/teams.md "Roles"), weakest first: a member asks and reads,
 * an admin also manages keys, invitations and members, an owner also changes roles and owns.
 */
export const MEMBER_ROLES = ['member', 'admin', 'owner'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** What a portal session adds to an actor: which session, which person, and their role on the account acted for. */
export interface SessionActor {
  id: string;
  personId: string;
  role: MemberRole;
}

/**
 * Who is calling. Services take this instead of a request (ARCHITECTURE §3 rule 2) so REST, MCP,
 * jobs and the CLI share them.
 */
export interface Actor {
  accountId: string;
  keyId: string | null;
  scopes: readonly Scope[];
  /** Daily spend cap of the key in credits, null for none. */
  dailyCapCredits: number | null;
  /** Set when a signed-in person calls through a portal session (docs/portal.md); absent for keys. */
  session?: SessionActor;
}

/**
 * The session of an actor that must be a signed-in person (the spec's "portal session only"):
 * a key gets 403 `insufficient_scope` with a message that says why.
 */
export function sessionOf(actor: Actor): SessionActor {
  if (!actor.session) {
    throw new AppError('insufficient_scope', 'This needs a portal session (a signed-in person); API keys cannot do it.', { credential: 'portal_session' });
  }
  return actor.session;
}

/** The session of an actor whose role on the account is at least `least` (owner > admin > member). */
export function requireRole(actor: Actor, least: MemberRole, what: string): SessionActor {
  const session = sessionOf(actor);
  if (MEMBER_ROLES.indexOf(session.role) < MEMBER_ROLES.indexOf(least)) {
    throw new AppError('insufficient_scope', `Only ${least === 'owner' ? 'an owner' : 'an owner or an admin'} of this account can ${what}.`, { role: session.role, needs: least });
  }
  return session;
}
