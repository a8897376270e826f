import { Type, type Static } from '@sinclair/typebox';
import { Closed, StringEnum } from '../../lib/typebox.ts';
import { CurrencySchema } from '../../lib/currencies.ts';
import { draftFields, LANGUAGE_PATTERN, OptionSchema, ReasonModeSchema, TierSchema } from './draft.schemas.ts';

/**
 * The shapes the vocabulary's data is written in (countries.data.ts, tags.data.ts,
 * templates.data.ts): a country's entry, the tag groups, a template's draft. The catalogues module
 * serves them (GET /v1/config, /v1/catalogues/*, /v1/templates) from here.
 */
export const TAG_GROUPS = ['life_stage', 'household', 'income', 'education', 'occupation', 'interests', 'habits', 'shopping', 'health', 'media', 'pets', 'tech'] as const;
export type TagGroupId = (typeof TAG_GROUPS)[number];

/** The regions countries are grouped in (a country entry's `region`). */
export const REGIONS = ['europe', 'north_america', 'south_america', 'asia', 'africa', 'oceania'] as const;

/** Checkout methods (spec: POST /v1/billing/checkout `method`); a country entry's `topUpMethod` is one. */
export const TOP_UP_METHODS = ['card', 'bank_transfer'] as const;

export const CountryEntrySchema = Closed(
  {
    payMultiplier: Type.Number({ exclusiveMinimum: 0, description: 'Multiplies head pay in this country.' }),
    minWithdrawalPence: Type.Integer({ minimum: 0 }),
    payoutRails: Type.Array(Type.String()),
    otpChannel: StringEnum(['sms', 'whatsapp']),
    taxFields: Type.Array(Type.String()),
    tier2Available: Type.Boolean(),
    currency: CurrencySchema,
    transferFields: Type.Optional(
      Type.Array(Closed({ key: Type.String(), label: Type.String(), example: Type.Optional(Type.String()), pattern: Type.Optional(Type.String()) })),
    ),
    region: Type.Optional(StringEnum(REGIONS, { description: 'Region used to group countries (extension).' })),
    minAge: Type.Optional(Type.Integer({ minimum: 13, maximum: 21, description: 'Youngest age a head may be in this country (extension).' })),
    topUpMethod: Type.Optional(
      StringEnum(TOP_UP_METHODS, { description: 'The checkout method (POST /v1/billing/checkout `method`) to offer first to people here: how most of them pay online (extension).' }),
    ),
    dialCode: Type.Optional(Type.String({ maxLength: 40, pattern: '^\\+[1-9]\\d{0,3}$', description: 'International dialling code of phone numbers here, e.g. +44; sign-in codes go to a phone (otpChannel) (extension).' })),
    localName: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: "The country's name in its first language, as CLDR writes it, e.g. Deutschland (extension)." })),
  },
  { $id: 'CountryEntry' },
);
export type CountryEntry = Static<typeof CountryEntrySchema>;

export const TemplateDraftSchema = Closed({
  ...draftFields,
  language: Type.String({ pattern: LANGUAGE_PATTERN }),
  options: Type.Array(OptionSchema, { maxItems: 8 }),
  neither: Type.Boolean(),
  n: Type.Integer({ minimum: 10, maximum: 5000 }),
  tier: TierSchema,
  rush: Type.Boolean(),
  publicResults: Type.Boolean(),
  reason: ReasonModeSchema,
});
