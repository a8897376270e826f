import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { MembershipRole, SessionsTable, SignInChallengesTable } from '../../db/schema.ts';

export type SessionRow = Selectable<SessionsTable>;
export type ChallengeRow = Selectable<SignInChallengesTable>;

/** A session found by its token, with the membership of the account it asks to act for (null when the person is not a member). */
export interface SessionLookup {
  id: string;
  person_id: string;
  account_id: string | null;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  personal_account_id: string;
  acting_account_id: string;
  role: MembershipRole | null;
}

/** SQL of sessions and of the sign-in challenges (one-time codes) that open them. */
export function createSessionsRepository(db: Db) {
  return {
    async insertSession(row: Insertable<SessionsTable>, tx: Db = db): Promise<SessionRow> {
      return tx.insertInto('sessions').values(row).returningAll().executeTakeFirstOrThrow();
    },

    /**
     * The session of a token hash in one statement, with the person's role on the account asked
     * for: `account` when given, else the session's chosen account when `useChosen` (the portal
     * pages), else the personal account.
     */
    async lookup(tokenHash: Buffer, account: string | null, useChosen: boolean, tx: Db = db): Promise<SessionLookup | undefined> {
      const acting = useChosen ? sql<string>`coalesce(${account}, s.account_id, p.personal_account_id)` : sql<string>`coalesce(${account}, p.personal_account_id)`;
      return tx
        .selectFrom('sessions as s')
        .innerJoin('people as p', 'p.id', 's.person_id')
        .leftJoin('memberships as m', (join) => join.onRef('m.person_id', '=', 's.person_id').on('m.account_id', '=', acting))
        .select(['s.id', 's.person_id', 's.account_id', 's.created_at', 's.last_seen_at', 's.expires_at', 's.revoked_at', 'p.personal_account_id', 'm.role'])
        .select(acting.as('acting_account_id'))
        .where('s.token_hash', '=', tokenHash)
        .executeTakeFirst();
    },

    async touch(id: string, at: Date, tx: Db = db): Promise<void> {
      await tx.updateTable('sessions').set({ last_seen_at: at }).where('id', '=', id).execute();
    },

    async chooseAccount(id: string, accountId: string, tx: Db = db): Promise<void> {
      await tx.updateTable('sessions').set({ account_id: accountId }).where('id', '=', id).execute();
    },

    /** A person's sessions that have not ended (not revoked, not past their absolute end), newest first. */
    async openSessions(personId: string, now: Date, tx: Db = db): Promise<SessionRow[]> {
      return tx
        .selectFrom('sessions')
        .selectAll()
        .where('person_id', '=', personId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
    },

    /** Revokes one of a person's sessions; false when it is not theirs or already ended. */
    async revoke(personId: string, id: string, at: Date, tx: Db = db): Promise<boolean> {
      const result = await tx.updateTable('sessions').set({ revoked_at: at }).where('id', '=', id).where('person_id', '=', personId).where('revoked_at', 'is', null).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * Serialises the code requests of one address and of one IP address for the rest of the
     * transaction (address first, then IP: one order), so the hourly limits are exact even when
     * requests arrive at once (an inbox flooded by parallel requests is what the limit is for).
     */
    async lockSignInRequests(email: string, ip: string | null, tx: Db): Promise<void> {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`sign-in:address:${email}`}))`.execute(tx);
      if (ip) await sql`SELECT pg_advisory_xact_lock(hashtext(${`sign-in:ip:${ip}`}))`.execute(tx);
    },

    async insertChallenge(row: Insertable<SignInChallengesTable>, tx: Db): Promise<void> {
      await tx.insertInto('sign_in_challenges').values(row).execute();
    },

    /** Ends every open challenge of an address: a new code replaces the old ones. */
    async closeChallenges(email: string, at: Date, tx: Db): Promise<void> {
      await tx.updateTable('sign_in_challenges').set({ used_at: at }).where('email', '=', email).where('used_at', 'is', null).execute();
    },

    /** Codes sent to an address, and from an IP address, since `since`: the per-address and per-IP limits. */
    async countSince(by: { email: string } | { ip: string }, since: Date, tx: Db): Promise<{ count: number; oldest: Date | null }> {
      let q = tx.selectFrom('sign_in_challenges').select([sql<number>`count(*)::int`.as('count'), sql<Date | null>`min(created_at)`.as('oldest')]).where('created_at', '>', since);
      q = 'email' in by ? q.where('email', '=', by.email) : q.where('ip', '=', by.ip);
      return q.executeTakeFirstOrThrow();
    },

    /** The address's open challenge (at most one is open), locked, so attempts count exactly. */
    async lockOpenChallenge(email: string, now: Date, tx: Db): Promise<ChallengeRow | undefined> {
      return tx
        .selectFrom('sign_in_challenges')
        .selectAll()
        .where('email', '=', email)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .limit(1)
        .forUpdate()
        .executeTakeFirst();
    },

    async lockChallengeByLink(linkHash: Buffer, tx: Db): Promise<ChallengeRow | undefined> {
      return tx.selectFrom('sign_in_challenges').selectAll().where('link_hash', '=', linkHash).forUpdate().executeTakeFirst();
    },

    async findChallengeByLink(linkHash: Buffer, tx: Db = db): Promise<ChallengeRow | undefined> {
      return tx.selectFrom('sign_in_challenges').selectAll().where('link_hash', '=', linkHash).executeTakeFirst();
    },

    async countAttempt(id: string, tx: Db): Promise<void> {
      await tx.updateTable('sign_in_challenges').set({ attempts: sql`attempts + 1` }).where('id', '=', id).execute();
    },

    async useChallenge(id: string, at: Date, tx: Db): Promise<void> {
      await tx.updateTable('sign_in_challenges').set({ used_at: at }).where('id', '=', id).execute();
    },
  };
}
export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
