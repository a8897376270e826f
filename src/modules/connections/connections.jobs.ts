import { Type } from '@sinclair/typebox';
import { defineJob, type JobDefinition } from '../../lib/job.ts';
import type { OauthStoreRepository } from './oauth-store.repository.ts';

/**
 * The authorization server's leftovers (docs/agents.md "Keys and storage"): expired codes, tokens,
 * interactions and device codes already read as absent; this deletes them so the table holds only
 * what can still be used. Wall-clock time, as oidc-provider's expiry is.
 */
export function connectionsJobs(store: Pick<OauthStoreRepository, 'sweepExpired'>): JobDefinition[] {
  return [
    defineJob({
      name: 'oauth-store-sweep',
      cron: '17 * * * *',
      payload: Type.Object({}),
      handler: async () => {
        await store.sweepExpired(new Date());
      },
    }),
  ];
}
