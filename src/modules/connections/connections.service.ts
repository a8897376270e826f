import { AppError, notFound } from '../../lib/errors.ts';
import { isScope, sessionOf, type Actor, type Scope } from '../../lib/actor.ts';
import { newId } from '../../lib/ids.ts';
import type { Clock } from '../../lib/clock.ts';
import type { PeopleRepository } from '../people/people.repository.ts';
import type { ConnectionRow, ConnectionsRepository } from './connections.repository.ts';
import type { OauthStoreRepository } from './oauth-store.repository.ts';
import type { ConnectionView } from './connections.schemas.ts';

/** last_used_at is written at most this often per connection, to keep tool calls free of writes. */
const TOUCH_INTERVAL_MS = 60_000;

/** What a person chose on the consent screen (docs/agents.md "Consent"). */
export interface ConsentChoice {
  personId: string;
  accountId: string;
  clientId: string;
  clientName: string;
  grantId: string;
  scopes: Scope[];
  dailyCapCredits: number | null;
  autoApproveCredits: number;
}

function view(row: ConnectionRow): ConnectionView {
  return {
    id: row.id,
    clientId: row.client_id,
    clientName: row.name ?? row.client_id,
    account: { id: row.account_id, name: row.account_name, kind: row.account_kind },
    scopes: row.scopes.filter(isScope),
    dailyCapCredits: row.daily_cap_credits,
    autoApproveCredits: row.auto_approve_credits ?? 0,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
  };
}

/**
 * Connections: what a person granted an agent through OAuth (docs/agents.md). Each is a credential
 * of one account with scopes, a daily cap and an auto-approve amount, like a key; it stops when
 * the person revokes it in the portal, when the provider ends its grant (a reused refresh token),
 * or when the person leaves the account.
 */
export function createConnectionsService(deps: { repo: ConnectionsRepository; store: OauthStoreRepository; people: PeopleRepository; clock: Clock }) {
  const { repo, store, people, clock } = deps;
  return {
    /** Records the consent; the person must belong to the account (any role may connect an agent to it). */
    async create(choice: ConsentChoice): Promise<string> {
      if (!(await people.membership(choice.accountId, choice.personId))) throw notFound('No such account.');
      const id = newId('connection');
      await repo.insert({ id, ...choice, at: clock.now() });
      return id;
    },

    /**
     * The actor of an access token of `grantId` carrying `tokenScopes`: the connection's account,
     * the scopes both the token and the consent hold, the consent's cap.
     */
    async actorFor(grantId: string, tokenScopes: readonly string[], account: string | null = null): Promise<Actor> {
      const row = await repo.findByGrant(grantId);
      if (!row || row.revoked_at) throw new AppError('unauthorized', 'This connection was revoked; connect the app again.');
      if (!row.role) throw new AppError('unauthorized', 'The person who connected this app has left the account; connect again.');
      // Like a key, a connection acts for the account chosen at consent; naming another is refused, not ignored.
      if (account && account !== row.account_id) {
        throw new AppError('insufficient_scope', 'This connection acts for another account: it was granted for one account at consent.', { account });
      }
      const now = clock.now();
      if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() > TOUCH_INTERVAL_MS) await repo.touch(row.id, now);
      const scopes = row.scopes.filter((s): s is Scope => isScope(s) && tokenScopes.includes(s));
      return {
        accountId: row.account_id,
        keyId: row.id,
        scopes,
        dailyCapCredits: row.daily_cap_credits,
        grant: { personId: row.person_id, clientId: row.client_id, clientName: row.name ?? row.client_id, autoApproveCredits: row.auto_approve_credits ?? 0 },
      };
    },

    /** The signed-in person's connected apps, newest first. */
    async list(actor: Actor): Promise<ConnectionView[]> {
      return (await repo.listForPerson(sessionOf(actor).personId)).map(view);
    },

    /** Revokes one of the person's connections and everything issued under its grant, at once. */
    async revoke(actor: Actor, id: string): Promise<void> {
      const grantId = await repo.revoke(sessionOf(actor).personId, id, clock.now());
      if (!grantId) throw notFound('No such connected app.');
      await store.revokeByGrantId(grantId);
    },

    /** The provider ended a grant (reuse of a rotated refresh token, RFC 7009 revocation): its connection ends too. */
    async grantRevoked(grantId: string): Promise<void> {
      await repo.revokeByGrant(grantId, clock.now());
    },
  };
}
export type ConnectionsService = ReturnType<typeof createConnectionsService>;
