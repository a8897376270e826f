import type { Db } from '../../db/database.ts';

/** What oidc-provider hands its adapter to keep: any JSON object. */
export type OauthPayload = Record<string, unknown>;

/**
 * The authorization server's storage (migration 0015), in the shape of oidc-provider's adapter
 * contract (upsert, find, findByUid, findByUserCode, consume, destroy, revokeByGrantId). Expired
 * rows read as absent and are swept by `sweepExpired`.
 */
export function createOauthStoreRepository(db: Db) {
  const live = (model: string, at: Date) =>
    db.selectFrom('oauth_store').select(['payload', 'consumed_at']).where('model', '=', model).where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]));
  const withConsumed = (row: { payload: OauthPayload; consumed_at: Date | null } | undefined) =>
    row ? { ...row.payload, ...(row.consumed_at ? { consumed: Math.floor(row.consumed_at.getTime() / 1000) } : {}) } : undefined;

  return {
    async upsert(model: string, id: string, payload: OauthPayload, expiresAt: Date | null): Promise<void> {
      const row = {
        model,
        id,
        payload: JSON.stringify(payload),
        grant_id: typeof payload.grantId === 'string' ? payload.grantId : null,
        user_code: typeof payload.userCode === 'string' ? payload.userCode : null,
        uid: typeof payload.uid === 'string' ? payload.uid : null,
        expires_at: expiresAt,
      };
      await db
        .insertInto('oauth_store')
        .values(row)
        .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet({ payload: row.payload, grant_id: row.grant_id, user_code: row.user_code, uid: row.uid, expires_at: row.expires_at }))
        .execute();
    },

    async find(model: string, id: string, at: Date): Promise<OauthPayload | undefined> {
      return withConsumed(await live(model, at).where('id', '=', id).executeTakeFirst());
    },

    async findByUid(model: string, uid: string, at: Date): Promise<OauthPayload | undefined> {
      return withConsumed(await live(model, at).where('uid', '=', uid).executeTakeFirst());
    },

    async findByUserCode(model: string, userCode: string, at: Date): Promise<OauthPayload | undefined> {
      return withConsumed(await live(model, at).where('user_code', '=', userCode).executeTakeFirst());
    },

    /** Marks a code or refresh token used; a second use is then seen (and punished) by the provider. */
    async consume(model: string, id: string, at: Date): Promise<void> {
      await db.updateTable('oauth_store').set({ consumed_at: at }).where('model', '=', model).where('id', '=', id).execute();
    },

    async destroy(model: string, id: string): Promise<void> {
      await db.deleteFrom('oauth_store').where('model', '=', model).where('id', '=', id).execute();
    },

    /** Everything issued under a grant (codes, tokens, the grant itself) goes at once. */
    async revokeByGrantId(grantId: string): Promise<void> {
      await db.deleteFrom('oauth_store').where('grant_id', '=', grantId).execute();
      await db.deleteFrom('oauth_store').where('model', '=', 'Grant').where('id', '=', grantId).execute();
    },

    /** Deletes rows that expired before `at`; returns how many. */
    async sweepExpired(at: Date): Promise<number> {
      const result = await db.deleteFrom('oauth_store').where('expires_at', '<', at).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
export type OauthStoreRepository = ReturnType<typeof createOauthStoreRepository>;
