import { Type, type Static } from '@sinclair/typebox';
import { Closed, DateTime, Nullable, StringEnum, RefOf } from '../../lib/typebox.ts';
import { QUESTION_LANGUAGES } from '../draft/question-types.ts';
import { CountryEntrySchema, TAG_GROUPS, TemplateDraftSchema } from '../draft/catalogue-entries.schemas.ts';
import { CreditPackSchema } from '../credits/credits.schemas.ts';

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
    creditPacks: Type.Optional(
      Type.Array(CreditPackSchema, { description: 'The packs of credits for sale, smallest first; a bigger pack is cheaper per credit (extension).' }),
    ),
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
