import { AppError } from './errors.ts';

/** The scopes of the spec ("Authentication"). */
export const SCOPES = ['questions:read', 'questions:write', 'templates:read', 'account:read'] as const;
export type Scope = (typeof SCOPES)[number];

/** What each scope allows, in the spec's words (OpenAPI's oauth2 scheme, the consent page's fallback). */
export const SCOPE_MEANINGS: Readonly<Record<Scope, string>> = {
  'questions:read': 'Read questions, results, answers, insights, exports, drafts, projects, labels and share links.',
  'questions:write': 'Ask and spend up to the cap; change, cancel, flag, pin, dispute, share, save drafts, create projects, upload.',
  'templates:read': 'Read templates.',
  'account:read': 'Read the balance, the ledger and the connection.',
};

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
 * What an OAuth access token adds (docs/agents.md): the connection an agent acts under, made when
 * a person consented. `Actor.keyId` is the connection's id, so its daily cap works like a key's.
 */
export interface GrantActor {
  /** The person who consented; questions asked through the grant are theirs (`askedBy`). */
  personId: string;
  clientId: string;
  clientName: string;
  /** Asks priced at or under this many credits go ahead without `confirm: true` (0: always ask first). */
  autoApproveCredits: number;
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
  /** Set when an agent calls with an OAuth access token (docs/agents.md); absent otherwise. */
  grant?: GrantActor;
}

/** The person behind a call: the signed-in person, or the one who granted an agent access; null for a key. */
export function personOf(actor: Actor): string | null {
  return actor.session?.personId ?? actor.grant?.personId ?? null;
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
