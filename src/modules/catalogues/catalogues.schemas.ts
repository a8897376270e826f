import { Type, type Static } from '@sinclair/typebox';
import { Closed, DateTime, Nullable, StringEnum, RefOf } from '../../lib/typebox.ts';
import { CurrencySchema } from '../credits/credits.schemas.ts';
import { QUESTION_LANGUAGES } from '../draft/question-types.ts';
import { draftFields, LANGUAGE_PATTERN, OptionSchema, ReasonModeSchema, TierSchema } from '../draft/draft.schemas.ts';

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

export const ConfigSchema = Closed(
  {
    rates: Type.Record(Type.String(), Type.Number(), { description: 'Exchange rates from GBP (1 GBP = rate units).' }),
    ratesDate: Type.String({ format: 'date' }),
    countries: Type.Record(Type.String({ pattern: '^[A-Z]{2}$' }), RefOf(CountryEntrySchema)),
    defaultCountry: RefOf(CountryEntrySchema),
    questionLanguages: Type.Array(StringEnum(QUESTION_LANGUAGES)),
    reverifyDays: Type.Integer({ minimum: 1 }),
    tier1PayPence: Type.Integer({ minimum: 1 }),
    tier2PayMultiplier: Type.Number({ minimum: 1 }),
    answeringCountries: Type.Optional(Type.Array(Type.String())),
    webTopUpStorefronts: Type.Optional(Type.Array(Type.String())),
  },
  { $id: 'Config' },
);
export type PublicConfig = Static<typeof ConfigSchema>;

export const PoolBandSchema = Nullable(Type.String({ description: 'Size band of heads: under_50, 50_200, 200_1000, 1000_5000 or 5000_plus; null when not offered.' }));

export const CountriesCatalogueSchema = Closed(
  {
    countries: Type.Array(
      Closed({
        code: Type.String({ minLength: 2, maxLength: 2 }),
        name: Type.String(),
        languages: Type.Array(Type.String()),
        tier2Available: Type.Boolean(),
        poolBands: Closed({ tier1: PoolBandSchema, tier2: PoolBandSchema, tier3: PoolBandSchema }),
      }),
    ),
    updatedAt: DateTime(),
  },
  { $id: 'CountriesCatalogue' },
);
export type CountriesCatalogue = Static<typeof CountriesCatalogueSchema>;

export const TagsCatalogueSchema = Closed(
  {
    groups: Type.Array(
      Closed({
        id: StringEnum(TAG_GROUPS),
        label: Type.String(),
        why: Type.String({ description: 'Why a requester would target this group.' }),
        max: Type.Integer({ minimum: 1, description: 'How many tags of this group one question may target.' }),
      }),
    ),
    tags: Type.Array(Closed({ id: Type.String(), group: StringEnum(TAG_GROUPS), label: Type.String() })),
  },
  { $id: 'TagsCatalogue' },
);
export type TagsCatalogue = Static<typeof TagsCatalogueSchema>;

export const StatsSchema = Closed(
  {
    headsOnlineNow: Type.Integer({ minimum: 0 }),
    answersThisWeek: Type.Integer({ minimum: 0 }),
    medianMinutesTo50: Type.Number({ minimum: 0 }),
    headEarningsPerHour: Closed({ low: Type.Integer({ minimum: 0 }), high: Type.Integer({ minimum: 0 }) }, { description: 'Pence an hour a head earns answering.' }),
    updatedAt: DateTime(),
  },
  { $id: 'Stats' },
);
export type Stats = Static<typeof StatsSchema>;

/** A template's draft always carries these defaults filled in (spec "Template"). */
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

export const TemplateSchema = Closed(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    draft: TemplateDraftSchema,
    priceCredits: Type.Integer({ minimum: 0, description: 'What asking this draft as it stands costs, from the pricing module.' }),
  },
  { $id: 'Template' },
);
export type Template = Static<typeof TemplateSchema>;
