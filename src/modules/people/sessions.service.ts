import type { Clock } from '../../lib/clock.ts';
import type { Db } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { SCOPES, sessionOf, type Actor } from '../../lib/actor.ts';
import { generateSessionToken, hashApiKey, isWellFormedSessionToken } from '../../lib/api-key-format.ts';
import { addDays } from '../../lib/dates.ts';
import type { SessionRow, SessionsRepository } from './sessions.repository.ts';
import type { PeopleRepository } from './people.repository.ts';
import type { SessionView } from './people.schemas.ts';

/** last_seen_at moves at most once a minute: the idle limit is counted in hours, and auth stays one read. */
const TOUCH_INTERVAL_MS = 60_000;
const HOUR_MS = 3_600_000;

/** Where a session is used from: kept with it so a person can tell their sessions apart. */
export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

export interface SessionLifetimes {
  idleHours: number;
  maxDays: number;
}

/** Where the account a session acts for comes from: an explicit account (the API's Headcount-Account header), else the portal's choice or the personal account. */
export interface AuthenticateOptions {
  account?: string | null;
  /** The portal pages: act for the account chosen with the switcher (API calls default to the personal account). */
  portal?: boolean;
}

const clip = (text: string | null, max: number) => (text === null ? null : text.slice(0, max));

/**
 * Portal sessions (docs/portal.md "Sessions"; RELIABILITY R8.2): random 256-bit bearer tokens of
 * their own shape (`hc_ses_…`), stored as SHA-256 only, ending after an idle time, at an absolute
 * time, or when revoked (sign-out revokes). A session acts with every scope for the accounts its
 * person belongs to, with their role on the account it acts for.
 */
export function createSessionsService(deps: { repo: SessionsRepository; people: PeopleRepository; clock: Clock; lifetimes: SessionLifetimes }) {
  const { repo, people, clock, lifetimes } = deps;
  const idleEnd = (session: Pick<SessionRow, 'last_seen_at' | 'expires_at'>) =>
    new Date(Math.min(session.last_seen_at.getTime() + lifetimes.idleHours * HOUR_MS, session.expires_at.getTime()));

  const view = (row: SessionRow, currentId: string | null): SessionView => ({
    id: row.id,
    createdAt: row.created_at.toISOString(),
    lastSeenAt: row.last_seen_at.toISOString(),
    expiresAt: idleEnd(row).toISOString(),
    userAgent: row.user_agent,
    ip: row.ip,
    current: row.id === currentId,
  });

  return {
    view,

    /**
     * A new session for a person who just proved their address (in the sign-in's transaction).
     * Always a fresh token: nothing the client sent before sign-in becomes the session (no fixation).
     */
    async open(personId: string, client: ClientInfo, tx: Db): Promise<{ token: string; session: SessionRow }> {
      const token = generateSessionToken();
      const now = clock.now();
      const session = await repo.insertSession(
        {
          id: newId('session'),
          person_id: personId,
          token_hash: hashApiKey(token),
          account_id: null,
          user_agent: clip(client.userAgent, 300),
          ip: client.ip,
          created_at: now,
          last_seen_at: now,
          expires_at: addDays(now, lifetimes.maxDays),
          revoked_at: null,
        },
        tx,
      );
      return { token, session };
    },

    /**
     * Bearer token → actor. A token of the wrong shape or checksum is refused before any lookup;
     * an ended session is 401; an account the person does not belong to is 403 (the same answer
     * whether or not the account exists).
     */
    async authenticate(token: string, options: AuthenticateOptions = {}): Promise<Actor> {
      if (!isWellFormedSessionToken(token)) throw new AppError('unauthorized', 'The session token is malformed.');
      let found = await repo.lookup(hashApiKey(token), options.account ?? null, options.portal === true);
      // The portal's chosen team may have removed the person since: the pages go back to the personal account.
      if (found && !found.role && options.portal && !options.account) found = await repo.lookup(hashApiKey(token), found.personal_account_id, false);
      if (!found) throw new AppError('unauthorized', 'The session is not known; sign in again.');
      const now = clock.now();
      if (found.revoked_at) throw new AppError('unauthorized', 'The session has ended (signed out or revoked); sign in again.');
      if (now >= idleEnd(found)) throw new AppError('unauthorized', 'The session has expired; sign in again.');
      if (!found.role) {
        throw new AppError('insufficient_scope', `This person is not a member of the account ${found.acting_account_id}.`, { account: found.acting_account_id });
      }
      if (now.getTime() - found.last_seen_at.getTime() > TOUCH_INTERVAL_MS) await repo.touch(found.id, now);
      return {
        accountId: found.acting_account_id,
        keyId: null,
        scopes: SCOPES,
        dailyCapCredits: null,
        session: { id: found.id, personId: found.person_id, role: found.role },
      };
    },

    /** The person's sessions that have not ended, newest first; `current` marks the caller's. */
    async list(actor: Actor): Promise<SessionView[]> {
      const session = sessionOf(actor);
      const now = clock.now();
      const rows = await repo.openSessions(session.personId, now);
      return rows.filter((row) => idleEnd(row) > now).map((row) => view(row, session.id));
    },

    /** Ends one of the person's sessions (another device's, or this one); 404 when it is not theirs or already ended. */
    async revoke(actor: Actor, id: string): Promise<void> {
      const session = sessionOf(actor);
      if (!(await repo.revoke(session.personId, id, clock.now()))) throw notFound('No such session.');
    },

    /** Sign-out: ends the session the request came with. Idempotent for the portal's sake. */
    async signOut(actor: Actor): Promise<void> {
      const session = sessionOf(actor);
      await repo.revoke(session.personId, session.id, clock.now());
    },

    /** The portal's account switcher: which of the person's accounts the pages act for. */
    async chooseAccount(actor: Actor, accountId: string): Promise<void> {
      const session = sessionOf(actor);
      if (!(await people.membership(accountId, session.personId))) throw notFound('No such account.');
      await repo.chooseAccount(session.id, accountId);
    },
  };
}
export type SessionsService = ReturnType<typeof createSessionsService>;
