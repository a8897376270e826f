import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { MembershipRole } from '../../db/schema.ts';

/** A connection (an api_keys row of kind 'oauth', migration 0015) with its account and the granting person's role there now. */
export interface ConnectionRow {
  id: string;
  account_id: string;
  account_name: string;
  account_kind: 'person' | 'team';
  name: string | null;
  client_id: string;
  grant_id: string;
  person_id: string;
  scopes: string[];
  daily_cap_credits: number | null;
  auto_approve_credits: number | null;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  /** The person's role on the account today; null when they have left it (the connection then stops). */
  role: MembershipRole | null;
}

export interface NewConnection {
  id: string;
  accountId: string;
  personId: string;
  clientId: string;
  clientName: string;
  grantId: string;
  scopes: string[];
  dailyCapCredits: number | null;
  autoApproveCredits: number;
  at: Date;
}

/** SQL of connections: agents' OAuth grants as credentials of an account (docs/agents.md). */
export function createConnectionsRepository(db: Db) {
  const rows = () =>
    db
      .selectFrom('api_keys as k')
      .innerJoin('accounts as a', 'a.id', 'k.account_id')
      .leftJoin('memberships as m', (join) => join.onRef('m.account_id', '=', 'k.account_id').onRef('m.person_id', '=', 'k.created_by'))
      // A literal, so the prepared statement's generic plan can use api_keys_connections (WHERE kind = 'oauth').
      .where('k.kind', '=', sql.lit('oauth'))
      .select([
        'k.id', 'k.account_id', 'a.name as account_name', 'a.kind as account_kind', 'k.name', 'k.client_id', 'k.grant_id', 'k.created_by as person_id',
        'k.scopes', 'k.daily_cap_credits', 'k.auto_approve_credits', 'k.created_at', 'k.last_used_at', 'k.revoked_at', 'm.role',
      ])
      .$narrowType<{ client_id: string; grant_id: string; person_id: string }>();

  return {
    async insert(c: NewConnection, tx: Db = db): Promise<void> {
      await tx
        .insertInto('api_keys')
        .values({
          id: c.id, account_id: c.accountId, name: c.clientName, mode: 'live', prefix: 'oauth', secret_hash: null, scopes: c.scopes,
          daily_cap_credits: c.dailyCapCredits, created_at: c.at, created_by: c.personId, kind: 'oauth', grant_id: c.grantId,
          client_id: c.clientId, auto_approve_credits: c.autoApproveCredits,
        })
        .execute();
    },

    async findByGrant(grantId: string): Promise<ConnectionRow | undefined> {
      return rows().where('k.grant_id', '=', grantId).executeTakeFirst();
    },

    /** The person's connections that are not revoked, newest first. */
    async listForPerson(personId: string): Promise<ConnectionRow[]> {
      return rows().where('k.created_by', '=', personId).where('k.revoked_at', 'is', null).orderBy('k.created_at', 'desc').orderBy('k.id').execute();
    },

    /** Revokes one of the person's connections; returns its grant id, or null when it is not theirs or already revoked. */
    async revoke(personId: string, id: string, at: Date): Promise<string | null> {
      const row = await db
        .updateTable('api_keys')
        .set({ revoked_at: at })
        .where('id', '=', id)
        .where('kind', '=', 'oauth')
        .where('created_by', '=', personId)
        .where('revoked_at', 'is', null)
        .returning('grant_id')
        .executeTakeFirst();
      return row?.grant_id ?? null;
    },

    /** Marks the connection of a grant revoked (the provider ended the grant: a reused refresh token, a revocation). */
    async revokeByGrant(grantId: string, at: Date): Promise<void> {
      await db.updateTable('api_keys').set({ revoked_at: at }).where('grant_id', '=', grantId).where('revoked_at', 'is', null).execute();
    },

    async touch(id: string, at: Date): Promise<void> {
      await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
    },
  };
}
export type ConnectionsRepository = ReturnType<typeof createConnectionsRepository>;
