import { Type, type Static } from '@sinclair/typebox';
import { Closed, DateTime, Nullable, RefOf, StringEnum } from '../../lib/typebox.ts';
import { CurrencySchema } from '../../lib/currencies.ts';
import { SCOPES } from '../../lib/actor.ts';

/** An account (a person's or a team's) as the admin CLI prints it (the API shows accounts as memberships: people.schemas.ts). */
export const AccountSchema = Closed(
  {
    id: Type.String({ description: 'acc_…' }),
    name: Type.String(),
    kind: StringEnum(['person', 'team']),
    currency: CurrencySchema,
    language: Type.String(),
    createdAt: DateTime(),
  },
  { $id: 'Account' },
);
export type AccountView = Static<typeof AccountSchema>;

/** An API key as lists show it: never its secret, only a prefix to tell keys apart (docs/api.md "Keys"). */
export const ApiKeySchema = Closed(
  {
    id: Type.String({ description: 'key_…' }),
    accountId: Type.String(),
    name: Nullable(Type.String()),
    mode: StringEnum(['live', 'test']),
    prefix: Type.String({ description: 'The first characters and the last four of the secret, e.g. `hc_live_4cYwQz…a1B2`.' }),
    scopes: Type.Array(StringEnum(SCOPES)),
    dailyCapCredits: Nullable(Type.Integer({ minimum: 0 }), { description: 'Credits the key may reserve in one UTC day; null for no cap.' }),
    createdAt: DateTime(),
    createdBy: Nullable(Type.String(), { description: 'The person (per_…) who made it in the portal; null for keys made with the admin CLI.' }),
    lastUsedAt: Nullable(DateTime(), { description: 'When the key was last used (to the minute).' }),
    revokedAt: Nullable(DateTime()),
  },
  { $id: 'ApiKey' },
);
export type KeyView = Static<typeof ApiKeySchema>;

export const KEY_LIMITS = { name: 60, cap: 10_000_000 } as const;

export const CreateKeyBodySchema = Closed({
  name: Type.String({ minLength: 1, maxLength: KEY_LIMITS.name, description: 'What the key is for, e.g. "CI" or "research agent".' }),
  scopes: Type.Array(StringEnum(SCOPES), { minItems: 1, maxItems: SCOPES.length, uniqueItems: true }),
  dailyCapCredits: Nullable(Type.Integer({ minimum: 0, maximum: KEY_LIMITS.cap }), { description: 'Credits the key may reserve in one UTC day; null for no cap.' }),
  mode: Type.Optional(StringEnum(['live', 'test'], { default: 'live' })),
});

export const CreatedKeySchema = Closed({
  key: RefOf(ApiKeySchema),
  secret: Type.String({ description: 'The key itself (hc_live_… or hc_test_…), shown only in this response: store it now.' }),
});
