import { requireRole, sessionOf, type Actor } from '../../lib/actor.ts';
import type { AccountsService } from './accounts.service.ts';
import type { KeyView } from './accounts.schemas.ts';
import type { KeyMode } from '../../lib/api-key-format.ts';

export interface NewKey {
  name: string;
  scopes: string[];
  dailyCapCredits: number | null;
  mode?: KeyMode;
}

/**
 * The portal's Developers page and its API (docs/portal.md "API keys"): a signed-in person's keys
 * of the account they act for. Every member sees the list (never a secret); owners and admins make
 * and revoke keys, since a key spends the account's credits with no person present.
 */
export function createDeveloperKeysService(deps: { accounts: AccountsService }) {
  const { accounts } = deps;
  return {
    async list(actor: Actor): Promise<KeyView[]> {
      sessionOf(actor);
      return accounts.listKeys(actor.accountId);
    },

    async create(actor: Actor, key: NewKey, formNonce: string | null = null): Promise<{ key: KeyView; secret: string }> {
      const session = requireRole(actor, 'admin', 'make API keys');
      return accounts.createKey({ accountId: actor.accountId, name: key.name.trim(), scopes: key.scopes, dailyCapCredits: key.dailyCapCredits, mode: key.mode, createdBy: session.personId, formNonce });
    },

    async revoke(actor: Actor, keyId: string): Promise<KeyView> {
      requireRole(actor, 'admin', 'revoke API keys');
      return accounts.revokeKey(keyId, actor.accountId);
    },
  };
}
export type DeveloperKeysService = ReturnType<typeof createDeveloperKeysService>;
