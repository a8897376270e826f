import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { QUESTION_TYPES } from '../../src/modules/draft/question-types.ts';

/**
 * The public catalogues (spec "Pricing and config", "Other public catalogues"; docs/catalogues.md):
 * no credential, and the figures that come from the panel follow the heads table and the fake clock.
 */
const CACHE_MS = 60_000;
const LANGUAGES = ['en', 'es', 'pt', 'hi', 'fr', 'de', 'id', 'tl'];
const TAG_GROUPS = ['life_stage', 'household', 'income', 'education', 'occupation', 'interests', 'habits', 'shopping', 'health', 'media', 'pets', 'tech'];
const BANDS = ['under_50', '50_200', '200_1000', '1000_5000', '5000_plus'];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Json = Record<string, any>;

async function get(url: string, headers: Record<string, string> = {}): Promise<Json> {
  const response = await t.inject({ method: 'GET', url, headers });
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response.json();
}

let headSeq = 0;
/** Inserts `count` heads directly, as the head-facing surfaces would. */
async function insertHeads(count: number, fields: { country: string; tier?: number; lastSeenAt?: Date | null }): Promise<string[]> {
  const ids = Array.from({ length: count }, () => `head_t${++headSeq}`);
  const seen = fields.lastSeenAt === undefined ? null : fields.lastSeenAt;
  await sql`
    INSERT INTO heads (id, country, tier, age_band, gender, tags, verified_age, language, simulated, last_seen_at, created_at)
    SELECT id, ${fields.country}, ${fields.tier ?? 1}, '25-34', 'woman', '{}'::text[], false, 'en', false, ${seen}::timestamptz, ${t.clock.now()}::timestamptz
    FROM unnest(${ids}::text[]) AS id`.execute(t.db);
  return ids;
}

describe('GET /v1/config', () => {
  let config: Json;
  beforeAll(async () => {
    config = await get('/v1/config');
  });

  it('lists the credit packs for sale: every currency priced, smallest first, bigger packs cheaper per credit', () => {
    const packs = config.creditPacks as Json[];
    expect(packs.map((p) => p.id)).toEqual(['starter', 'standard', 'studio', 'scale']);
    expect(packs.find((p) => p.id === 'starter')).toEqual({ id: 'starter', credits: 1000, prices: { GBP: 1000, USD: 1000, EUR: 1000, CAD: 1000 }, validForDays: 365 });
    for (const currency of ['GBP', 'USD', 'EUR', 'CAD']) {
      const perCredit = packs.map((p) => p.prices[currency] / p.credits);
      expect(perCredit, currency).toEqual([...perCredit].sort((x, y) => y - x));
      expect(new Set(perCredit).size, currency).toBe(packs.length);
    }
  });

  it('lists the 8 question languages', () => {
    expect([...config.questionLanguages].sort()).toEqual([...LANGUAGES].sort());
  });

  it('gives every country entry the required fields with sensible values', () => {
    const entries = Object.entries(config.countries as Record<string, Json>);
    expect(entries.length).toBeGreaterThanOrEqual(10);
    for (const [code, entry] of entries) {
      expect(code).toMatch(/^[A-Z]{2}$/);
      expect(typeof entry.payMultiplier, code).toBe('number');
      expect(entry.payMultiplier, code).toBeGreaterThan(0);
      expect(Number.isSafeInteger(entry.minWithdrawalPence) && entry.minWithdrawalPence >= 0, code).toBe(true);
      expect(entry.payoutRails.length, code).toBeGreaterThan(0);
      for (const rail of entry.payoutRails) expect(typeof rail).toBe('string');
      expect(['sms', 'whatsapp'], code).toContain(entry.otpChannel);
      expect(Array.isArray(entry.taxFields), code).toBe(true);
      expect(typeof entry.tier2Available, code).toBe('boolean');
      expect(['GBP', 'USD', 'EUR', 'CAD'], code).toContain(entry.currency);
    }
  });

  it('fills the further optional fields of every entry (spec: a card-method value, a region value, two strings up to 40 characters, an integer 13 to 21)', async () => {
    const catalogue = await get('/v1/public/countries');
    const languages = Object.fromEntries(catalogue.countries.map((c: Json) => [c.code, c.languages as string[]]));
    for (const [code, entry] of Object.entries(config.countries as Record<string, Json>)) {
      // The card-method value: the checkout method (POST /v1/billing/checkout `method`) to offer first there.
      expect(['card', 'bank_transfer'], code).toContain(entry.topUpMethod);
      expect(['europe', 'north_america', 'south_america', 'asia', 'africa', 'oceania'], code).toContain(entry.region);
      // The two strings: the dialling code (sign-in codes go to a phone: otpChannel) and the name in the country's first language.
      expect(entry.dialCode, code).toMatch(/^\+[1-9]\d{0,3}$/);
      expect(entry.localName.length, code).toBeGreaterThan(0);
      expect(entry.localName.length, code).toBeLessThanOrEqual(40);
      expect(entry.localName, code).toBe(new Intl.DisplayNames([languages[code][0]], { type: 'region' }).of(code));
      expect(Number.isSafeInteger(entry.minAge) && entry.minAge >= 13 && entry.minAge <= 21, code).toBe(true);
    }
    expect(config.countries.GB).toMatchObject({ dialCode: '+44', localName: 'United Kingdom', topUpMethod: 'card' });
    expect(config.countries.DE).toMatchObject({ dialCode: '+49', localName: 'Deutschland' });
    expect(config.countries.IN).toMatchObject({ dialCode: '+91', localName: 'भारत' });
    // Typed in /openapi.json as extensions of CountryEntry.
    const schema = (await get('/openapi.json')).components.schemas.CountryEntry;
    expect(schema.properties.topUpMethod).toMatchObject({ type: 'string', enum: ['card', 'bank_transfer'] });
    expect(schema.properties.dialCode).toMatchObject({ type: 'string', maxLength: 40 });
    expect(schema.properties.localName).toMatchObject({ type: 'string', maxLength: 40 });
    expect(schema.properties.region).toMatchObject({ type: 'string', enum: ['europe', 'north_america', 'south_america', 'asia', 'africa', 'oceania'] });
    expect(schema.required).not.toContain('dialCode');
  });

  it('has a default country (the United Kingdom) and answeringCountries match the countries', () => {
    expect(config.defaultCountry).toEqual(config.countries.GB);
    expect(config.answeringCountries).toEqual(Object.keys(config.countries));
    expect(new Set(config.answeringCountries).size).toBe(config.answeringCountries.length);
  });

  it('states the pay figures the pricing uses and rates from GBP', () => {
    expect(config.tier1PayPence).toBe(8);
    expect(config.tier2PayMultiplier).toBe(2);
    expect(config.rates.GBP).toBe(1);
    expect(config.ratesDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Number.isSafeInteger(config.reverifyDays) && config.reverifyDays > 0).toBe(true);
  });

  it('needs no credential and ignores a bad one', async () => {
    expect(await get('/v1/config', { authorization: 'Bearer nonsense' })).toEqual(config);
  });
});

describe('GET /v1/templates', () => {
  let templates: Json[];
  beforeAll(async () => {
    templates = (await get('/v1/templates')).templates;
  });

  it('offers at least 8 templates with unique ids, names and descriptions', () => {
    expect(templates.length).toBeGreaterThanOrEqual(8);
    expect(new Set(templates.map((x) => x.id)).size).toBe(templates.length);
    for (const template of templates) {
      expect(template.name.length).toBeGreaterThan(0);
      expect(template.description.length).toBeGreaterThan(0);
      expect(QUESTION_TYPES).toContain(template.draft.type);
    }
  });

  it('shows as priceCredits exactly what the estimate charges for the same draft, and every template is askable', async () => {
    for (const template of templates) {
      const response = await t.inject({ method: 'POST', url: '/v1/billing/estimate', payload: { draft: template.draft } });
      expect(response.statusCode, template.id).toBe(200);
      const estimate = response.json();
      expect(estimate.validation, template.id).toEqual([]);
      expect(template.priceCredits, template.id).toBe(estimate.creditsTotal);
      expect(template.priceCredits, template.id).toBeGreaterThan(0);
    }
  });

  it('answers without a credential although it declares templates:read', async () => {
    const doc = (await t.app.inject('/openapi.json')).json();
    expect(doc.paths['/v1/templates'].get.security).toEqual(expect.arrayContaining([{ bearerAuth: ['templates:read'] }]));
    const response = await t.inject({ method: 'GET', url: '/v1/templates' });
    expect(response.statusCode).toBe(200);
  });
});

describe('GET /v1/tags', () => {
  let catalogue: Json;
  beforeAll(async () => {
    catalogue = await get('/v1/tags');
  });

  it('has the 12 groups, each with why and max 1 (spec: one trait per group)', () => {
    expect(catalogue.groups.map((g: Json) => g.id)).toEqual(TAG_GROUPS);
    for (const group of catalogue.groups) {
      expect(group.label.length, group.id).toBeGreaterThan(0);
      expect(group.why.length, group.id).toBeGreaterThan(20);
      expect(group.max, group.id).toBe(1);
    }
  });

  it('puts every tag in a group that exists, with a unique id, and every group has tags', () => {
    const groups = new Set(catalogue.groups.map((g: Json) => g.id));
    for (const tag of catalogue.tags) {
      expect(groups.has(tag.group), `${tag.id} → ${tag.group}`).toBe(true);
      expect(tag.label.length).toBeGreaterThan(0);
    }
    expect(new Set(catalogue.tags.map((tag: Json) => tag.id)).size).toBe(catalogue.tags.length);
    for (const id of groups) expect(catalogue.tags.some((tag: Json) => tag.group === id), String(id)).toBe(true);
  });

  it('lists tags the estimate accepts for targeting', async () => {
    for (const group of catalogue.groups) {
      const tag = catalogue.tags.find((x: Json) => x.group === group.id);
      const response = await t.inject({
        method: 'POST',
        url: '/v1/billing/estimate',
        payload: { draft: { type: 'yes_mostly_no', text: 'Q?', targeting: { countries: [], tags: [tag.id] } } },
      });
      expect(response.json().validation, tag.id).toEqual([]);
    }
  });
});

describe('GET /v1/public/countries', () => {
  it('lists the answering countries of the config, with real names and languages', async () => {
    const [config, catalogue] = [await get('/v1/config'), await get('/v1/public/countries')];
    expect(catalogue.countries.map((c: Json) => c.code)).toEqual(config.answeringCountries);
    const byCode = Object.fromEntries(catalogue.countries.map((c: Json) => [c.code, c]));
    expect(byCode.GB.name).toBe('United Kingdom');
    expect(byCode.US.name).toBe('United States');
    expect(byCode.DE.name).toBe('Germany');
    for (const country of catalogue.countries) {
      expect(country.name, country.code).not.toBe(country.code);
      expect(country.languages.length, country.code).toBeGreaterThan(0);
      expect(country.tier2Available, country.code).toBe(config.countries[country.code].tier2Available);
    }
  });

  it('bands the panel per country and tier, recomputed at most once a minute', async () => {
    // The panel is empty: every band is the smallest.
    const empty = await get('/v1/public/countries');
    expect(empty.updatedAt).toBe(t.clock.now().toISOString());
    for (const country of empty.countries) {
      expect(country.poolBands.tier1, country.code).toBe('under_50');
      if (country.tier2Available) {
        expect(country.poolBands.tier2, country.code).toBe('under_50');
        expect(country.poolBands.tier3, country.code).toBe('under_50');
      } else {
        expect(country.poolBands, country.code).toEqual({ tier1: 'under_50', tier2: null, tier3: null });
      }
    }

    // 60 tier-2 heads and 210 tier-1 heads in Ireland, 60 heads in Indonesia (no tier 2 there).
    await insertHeads(60, { country: 'IE', tier: 2 });
    await insertHeads(210, { country: 'IE', tier: 1 });
    await insertHeads(60, { country: 'ID', tier: 1 });

    t.clock.advance(CACHE_MS - 1_000);
    expect(await get('/v1/public/countries')).toEqual(empty);

    t.clock.advance(1_000);
    const after = await get('/v1/public/countries');
    expect(after.updatedAt).toBe(t.clock.now().toISOString());
    const byCode = Object.fromEntries(after.countries.map((c: Json) => [c.code, c]));
    expect(byCode.IE.poolBands).toEqual({ tier1: '200_1000', tier2: '50_200', tier3: 'under_50' });
    expect(byCode.ID.poolBands).toEqual({ tier1: '50_200', tier2: null, tier3: null });
    expect(byCode.GB.poolBands).toEqual({ tier1: 'under_50', tier2: 'under_50', tier3: 'under_50' });
    for (const country of after.countries) {
      for (const band of Object.values(country.poolBands)) if (band !== null) expect(BANDS).toContain(band);
      if (!country.tier2Available) expect(country.poolBands.tier2, country.code).toBeNull();
    }
  });
});

describe('GET /v1/public/stats', () => {
  it('counts heads seen in the last 5 minutes of the service clock, recomputed at most once a minute', async () => {
    t.clock.advance(CACHE_MS);
    const now = () => t.clock.now().getTime();
    // Whatever earlier tests inserted has last_seen_at null: never online.
    const baseline = await get('/v1/public/stats');
    expect(baseline.headsOnlineNow).toBe(0);
    expect(baseline.updatedAt).toBe(t.clock.now().toISOString());
    expect(baseline.answersThisWeek).toBe(0);
    expect(baseline.headEarningsPerHour.low).toBeGreaterThan(0);
    expect(baseline.headEarningsPerHour.high).toBeGreaterThanOrEqual(baseline.headEarningsPerHour.low);
    expect(baseline.medianMinutesTo50).toBeGreaterThan(0);

    const justNow = await insertHeads(3, { country: 'GB', lastSeenAt: new Date(now() - 30_000) });
    const fourMinutesAgo = await insertHeads(2, { country: 'FR', lastSeenAt: new Date(now() - 4 * 60_000) });
    await insertHeads(4, { country: 'US', lastSeenAt: new Date(now() - 6 * 60_000) });
    await insertHeads(1, { country: 'US', lastSeenAt: new Date(now() + 10_000) });

    // Still the cached figure within the minute.
    t.clock.advance(CACHE_MS - 1);
    expect((await get('/v1/public/stats')).headsOnlineNow).toBe(0);

    // A minute on, the figure is recomputed: the window is [now - 5 min, …], so the heads seen
    // 30 s before are in, the ones seen 4 min before are exactly 5 min old (still in), the one
    // stamped ahead is in, and the ones seen 6 min before are out.
    t.clock.advance(1);
    const fresh = await get('/v1/public/stats');
    expect(fresh.updatedAt).toBe(t.clock.now().toISOString());
    expect(fresh.headsOnlineNow).toBe(3 + 2 + 1);

    // Heads seen now count once the cache turns over; heads not seen again drop out.
    await sql`UPDATE heads SET last_seen_at = ${t.clock.now()} WHERE id = ANY(${fourMinutesAgo.slice(0, 1)}::text[]) OR country = 'US'`.execute(t.db);
    t.clock.advance(CACHE_MS);
    const later = await get('/v1/public/stats');
    // The GB heads were seen 2.5 min ago → in; one FR head 1 min ago → in, the other 6 min ago →
    // out; the five US heads 1 min ago → in.
    expect(later.headsOnlineNow).toBe(justNow.length + 1 + 5);

    t.clock.advance(5 * 60_000);
    expect((await get('/v1/public/stats')).headsOnlineNow).toBe(0);
  });
});
