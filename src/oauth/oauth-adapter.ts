import type { OauthPayload, OauthStoreRepository } from '../modules/connections/oauth-store.repository.ts';

/**
 * oidc-provider's storage adapter (its documented contract: one instance per model name) over the
 * PostgreSQL store, so codes, grants, tokens and registered clients survive a restart and are
 * shared by every process (RELIABILITY R4.5). Expiry is oidc-provider's own, in real time: `now`
 * is the wall clock, not the service's clock that tests move.
 */
export function oauthAdapterFor(store: OauthStoreRepository, now: () => Date = () => new Date()) {
  return class PostgresOauthAdapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: OauthPayload, expiresIn?: number): Promise<void> {
      await store.upsert(this.model, id, payload, expiresIn ? new Date(now().getTime() + expiresIn * 1000) : null);
    }

    find(id: string) {
      return store.find(this.model, id, now());
    }

    findByUid(uid: string) {
      return store.findByUid(this.model, uid, now());
    }

    findByUserCode(userCode: string) {
      return store.findByUserCode(this.model, userCode, now());
    }

    consume(id: string) {
      return store.consume(this.model, id, now());
    }

    destroy(id: string) {
      return store.destroy(this.model, id);
    }

    revokeByGrantId(grantId: string) {
      return store.revokeByGrantId(grantId);
    }
  };
}
