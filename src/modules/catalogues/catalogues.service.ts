import type { Clock } from '../../lib/clock.ts';
import { QUESTION_LANGUAGES } from '../draft/question-types.ts';
import { priceDraft, TIER1_PAY_PENCE, TIER2_PAY_MULTIPLIER } from '../draft/pricing.ts';
import { priceInputOf } from '../estimate/estimate.service.ts';
import { etaMinutes } from '../draft/eta.ts';
import type { CountriesCatalogue, PublicConfig, Stats, TagsCatalogue, Template } from './catalogues.schemas.ts';
import type { CountryEntry } from '../draft/catalogue-entries.schemas.ts';
import { ANSWERING_COUNTRIES, answeringCountry, countryName, DEFAULT_COUNTRY } from '../draft/countries.data.ts';
import { TAG_GROUP_DATA } from '../draft/tags.data.ts';
import { TEMPLATES } from '../draft/templates.data.ts';
import type { CataloguesRepository } from './catalogues.repository.ts';
import { addDays } from '../../lib/dates.ts';
import { sizeBand } from '../draft/size-bands.ts';
import { CREDIT_PACKS } from '../credits/credit-packs.ts';
import { CURRENCIES, RATES, RATES_DATE } from '../../lib/currencies.ts';

export const REVERIFY_DAYS = 365;
/** Answers a head gives in an hour of answering, for the earnings range. */
const ANSWERS_PER_HOUR = { quick: 40, written: 15 };
/** Panel counts change slowly; the public catalogues are recomputed at most this often. */
const CACHE_MS = 60_000;

const round1 = (value: number) => Math.round(value * 10) / 10;

function cached<T>(clock: Clock, compute: () => Promise<T>): () => Promise<T> {
  let value: { at: number; data: Promise<T> } | null = null;
  return () => {
    const now = clock.now().getTime();
    if (!value || now - value.at >= CACHE_MS) {
      const data = compute();
      value = { at: now, data };
      data.catch(() => (value = null));
    }
    return value.data;
  };
}

export function createCataloguesService(deps: { repo: CataloguesRepository; clock: Clock }) {
  const { repo, clock } = deps;

  const config: PublicConfig = {
    rates: RATES,
    ratesDate: RATES_DATE,
    countries: Object.fromEntries(ANSWERING_COUNTRIES.map((c) => [c.code, c.entry])) as Record<string, CountryEntry>,
    defaultCountry: answeringCountry(DEFAULT_COUNTRY)!.entry,
    questionLanguages: [...QUESTION_LANGUAGES],
    reverifyDays: REVERIFY_DAYS,
    tier1PayPence: TIER1_PAY_PENCE,
    tier2PayMultiplier: TIER2_PAY_MULTIPLIER,
    answeringCountries: ANSWERING_COUNTRIES.map((c) => c.code),
    webTopUpStorefronts: [...CURRENCIES],
    creditPacks: [...CREDIT_PACKS],
  };

  const templates: Template[] = TEMPLATES.map((t) => ({ ...t, priceCredits: priceDraft(priceInputOf(t.draft)).creditsTotal }));

  const tags: TagsCatalogue = {
    groups: TAG_GROUP_DATA.map(({ id, label, why, max }) => ({ id, label, why, max })),
    tags: TAG_GROUP_DATA.flatMap((group) => group.tags.map((tag) => ({ id: tag.id, group: group.id, label: tag.label }))),
  };

  const countries = cached(clock, async (): Promise<CountriesCatalogue> => {
    const rows = await repo.headsByCountryAndTier();
    // A tier-t question reaches heads of tier t and above.
    const atLeast = (code: string, tier: number) => rows.filter((r) => r.country === code && r.tier >= tier).reduce((sum, r) => sum + r.heads, 0);
    return {
      countries: ANSWERING_COUNTRIES.map((c) => ({
        code: c.code,
        name: countryName(c.code),
        languages: c.languages,
        tier2Available: c.entry.tier2Available,
        poolBands: {
          tier1: sizeBand(atLeast(c.code, 1)),
          tier2: c.entry.tier2Available ? sizeBand(atLeast(c.code, 2)) : null,
          tier3: c.entry.tier2Available ? sizeBand(atLeast(c.code, 3)) : null,
        },
      })),
      updatedAt: clock.now().toISOString(),
    };
  });

  const stats = cached(clock, async (): Promise<Stats> => {
    const now = clock.now();
    const online = await repo.headsSeenSince(new Date(now.getTime() - 5 * 60_000));
    const panel = await repo.panelActivity(addDays(now, -1));
    const low = Math.min(...ANSWERING_COUNTRIES.map((c) => c.entry.payMultiplier));
    const quickPay = Math.round(TIER1_PAY_PENCE * low);
    const writtenPay = priceDraft({ type: 'free_text', n: 1, tier: 3, rush: false, reason: 'off', countries: [], tags: [] }).payPerAnswer;
    return {
      headsOnlineNow: online,
      answersThisWeek: await repo.answersSince(addDays(now, -7)),
      // Measured over the last 30 days; until a question has reached 50 answers, the model's estimate.
      medianMinutesTo50: round1((await repo.minutesTo50(addDays(now, -30))) ?? etaMinutes({ n: 50, poolSize: panel.size, activeHeads: panel.active, rush: false })),
      headEarningsPerHour: { low: quickPay * ANSWERS_PER_HOUR.quick, high: writtenPay * ANSWERS_PER_HOUR.written },
      updatedAt: now.toISOString(),
    };
  });

  return {
    config: () => config,
    templates: () => templates,
    tags: () => tags,
    countries,
    stats,
  };
}
export type CataloguesService = ReturnType<typeof createCataloguesService>;
