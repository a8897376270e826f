import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey, type KeyMode } from '../../lib/api-key-format.ts';
import { AppError, notFound, validationError } from '../../lib/errors.ts';
import { QUESTION_LANGUAGES } from '../draft/question-types.ts';
import { CURRENCIES, type Currency } from '../../lib/currencies.ts';
import type { AccountRow, AccountsRepository, ApiKeyRow } from './accounts.repository.ts';
import { isScope, type Actor, type Scope } from '../../lib/actor.ts';
import type { AccountView, KeyView } from './accounts.schemas.ts';
import { createKeyCache, type KeyChanges } from './key-cache.ts';
import type { Notifier } from '../../lib/notifier.ts';

/**
 * last_used_at is a hint for people, not an audit log: written at most once a minute, and a key
 * looked up is kept in the key cache that long, so it may lag by up to two minutes.
 */
const TOUCH_INTERVAL_MS = 60_000;

const accountView = (row: AccountRow): AccountView => ({
  id: row.id,
  name: row.name,
  kind: row.kind,
  currency: row.currency,
  language: row.language,
  createdAt: row.created_at.toISOString(),
});

const keyView = (row: ApiKeyRow): KeyView => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  mode: row.mode,
  prefix: row.prefix,
  scopes: row.scopes.filter(isScope),
  dailyCapCredits: row.daily_cap_credits,
  createdAt: row.created_at.toISOString(),
  createdBy: row.created_by,
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
  revokedAt: row.revoked_at?.toISOString() ?? null,
});

export interface CreateAccountInput {
  name: string;
  kind?: 'person' | 'team';
  currency?: string;
  language?: string;
}

export interface CreateKeyInput {
  accountId: string;
  scopes: string[];
  dailyCapCredits?: number | null;
  name?: string | null;
  mode?: KeyMode;
  /** The person making it in the portal (null: the admin CLI). */
  createdBy?: string | null;
  /** The portal form it comes from: the same form sent twice makes one key. */
  formNonce?: string | null;
}

export function createAccountsService(deps: { repo: AccountsRepository; clock: Clock; keyChanges: KeyChanges & Pick<Notifier, 'publishKey'> }) {
  const { repo, clock, keyChanges } = deps;
  const keys = createKeyCache<Actor>(keyChanges, { ttlMs: TOUCH_INTERVAL_MS });

  /** The actor of the key behind a secret hash, from the database: unknown and revoked keys are refused. */
  async function lookUpKey(hash: Buffer, now: Date): Promise<Actor> {
    const row = await repo.findKeyByHash(hash);
    if (!row) throw new AppError('unauthorized', 'The API key is not known.');
    if (row.revoked_at) throw new AppError('unauthorized', 'The API key has been revoked.');
    if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() > TOUCH_INTERVAL_MS) {
      await repo.touchKey(row.id, now);
    }
    // Shared by every request the key makes while cached: frozen, so nothing can change it for the next one.
    return Object.freeze({
      accountId: row.account_id,
      keyId: row.id,
      scopes: Object.freeze(row.scopes.filter(isScope)) as Scope[],
      dailyCapCredits: row.daily_cap_credits,
    });
  }

  return {
    async createAccount(input: CreateAccountInput): Promise<AccountView> {
      const problems = [];
      const name = input.name?.trim() ?? '';
      if (name.length === 0 || name.length > 120) problems.push({ field: 'name', code: 'too_long' as const, message: 'name must be 1 to 120 characters.' });
      const currency = (input.currency ?? 'GBP').toUpperCase();
      if (!(CURRENCIES as readonly string[]).includes(currency)) problems.push({ field: 'currency', code: 'unknown_value' as const, message: `currency must be one of ${CURRENCIES.join(', ')}.` });
      const language = input.language ?? 'en';
      if (!(QUESTION_LANGUAGES as readonly string[]).includes(language)) problems.push({ field: 'language', code: 'unknown_value' as const, message: `language must be one of ${QUESTION_LANGUAGES.join(', ')}.` });
      const kind = input.kind ?? 'person';
      if (kind !== 'person' && kind !== 'team') problems.push({ field: 'kind', code: 'unknown_value' as const, message: 'kind must be person or team.' });
      if (problems.length) throw validationError(problems);
      const row = await repo.insertAccount({ id: newId('account'), name, kind, currency: currency as Currency, language, email: null, created_at: clock.now() });
      return accountView(row);
    },

    async getAccount(id: string): Promise<AccountView> {
      const row = await repo.findAccount(id);
      if (!row) throw notFound('No such account.');
      return accountView(row);
    },

    /** Creates a key; the secret is in the result and nowhere else, ever. */
    async createKey(input: CreateKeyInput): Promise<{ key: KeyView; secret: string }> {
      const problems = [];
      if (input.scopes.length === 0) problems.push({ field: 'scopes', code: 'too_few' as const, message: 'Give at least one scope.' });
      const unknown = input.scopes.filter((s) => !isScope(s));
      if (unknown.length) problems.push({ field: 'scopes', code: 'unknown_value' as const, message: `Unknown scope(s): ${unknown.join(', ')}.` });
      const cap = input.dailyCapCredits ?? null;
      if (cap !== null && (!Number.isSafeInteger(cap) || cap < 0)) problems.push({ field: 'cap', code: 'out_of_range' as const, message: 'cap must be a whole number of credits, 0 or more.' });
      if (problems.length) throw validationError(problems);
      if (!(await repo.findAccount(input.accountId))) throw notFound('No such account.');
      const secret = generateApiKey(input.mode ?? 'live');
      const row = await repo.insertKey({
        created_by: input.createdBy ?? null,
        form_nonce: input.formNonce ?? null,
        id: newId('key'),
        account_id: input.accountId,
        name: input.name ?? null,
        mode: input.mode ?? 'live',
        prefix: displayPrefix(secret),
        secret_hash: hashApiKey(secret),
        scopes: [...new Set(input.scopes)],
        daily_cap_credits: cap,
        created_at: clock.now(),
      });
      if (!row) throw new AppError('conflict', 'This form already made a key, and its secret was shown once: no key was made now.');
      return { key: keyView(row), secret };
    },

    /** Revokes a key; with `accountId`, only a key of that account (another account's key is 404). */
    async revokeKey(keyId: string, accountId?: string): Promise<KeyView> {
      const row = await repo.revokeKey(keyId, clock.now(), accountId);
      if (!row) throw notFound('No such key.');
      // This process's cache forgets it before the answer goes out (the database's NOTIFY tells the others).
      keyChanges.publishKey(row.id);
      return keyView(row);
    },

    async listKeys(accountId: string): Promise<KeyView[]> {
      if (!(await repo.findAccount(accountId))) throw notFound('No such account.');
      return (await repo.listKeys(accountId)).map(keyView);
    },

    /**
     * API key → actor. A key with a bad shape or checksum is refused before any
     * database lookup (R6.1); revoked keys fail on the very next request (the key cache drops a
     * key as its revocation is heard: key-cache.ts).
     */
    async authenticate(token: string, options: { account?: string | null } = {}): Promise<Actor> {
      if (!isWellFormedApiKey(token)) throw new AppError('unauthorized', 'The API key is malformed.');
      const hash = hashApiKey(token);
      const cacheKey = hash.toString('latin1');
      const now = clock.now();
      let actor = keys.get(cacheKey, now.getTime());
      if (!actor) {
        const generation = keys.generation();
        actor = await lookUpKey(hash, now);
        keys.put(cacheKey, actor, now.getTime(), generation);
      }
      // A key acts for its own account only; naming another (Headcount-Account) is refused, not ignored.
      if (options.account && options.account !== actor.accountId) {
        throw new AppError('insufficient_scope', 'This key belongs to another account: a key always acts for its own account.', { account: options.account });
      }
      return actor;
    },
  };
}
export type AccountsService = ReturnType<typeof createAccountsService>;
