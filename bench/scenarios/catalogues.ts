import { expectKeys, isObject, type Scenario } from './types.ts';

/**
 * Public GETs. /v1/config is a constant object (no database): the cost of the app's own request
 * pipeline (request id, rate limit, auth hook, serialisation) over bare Fastify. /v1/public/countries
 * reads the panel, but through a 60 s cache, so a run measures mostly the cached path.
 */
export const config: Scenario = {
  id: 'config',
  title: 'GET /v1/config',
  target: 'app',
  method: 'GET',
  path: '/v1/config',
  check(body) {
    const problems = expectKeys(body, ['rates', 'countries', 'defaultCountry', 'questionLanguages', 'tier1PayPence']);
    if (problems.length) return problems;
    const countries = (body as Record<string, unknown>).countries;
    return isObject(countries) && isObject(countries.GB) && isObject(countries.US) ? [] : ['countries lacks GB or US'];
  },
};

export const countries: Scenario = {
  id: 'countries',
  title: 'GET /v1/public/countries',
  target: 'app',
  method: 'GET',
  path: '/v1/public/countries',
  check(body) {
    const problems = expectKeys(body, ['countries', 'updatedAt']);
    if (problems.length) return problems;
    const list = (body as { countries: unknown }).countries;
    if (!Array.isArray(list) || list.length === 0) return ['countries is not a non-empty array'];
    const gb = list.find((c) => isObject(c) && c.code === 'GB') as Record<string, unknown> | undefined;
    if (!gb) return ['GB is not listed'];
    const bands = gb.poolBands;
    // 2,000 seeded heads put a few hundred in GB: a band other than the empty one proves the seed is read.
    return isObject(bands) && typeof bands.tier1 === 'string' && bands.tier1 !== 'under_50' ? [] : [`GB poolBands unexpected: ${JSON.stringify(bands)}`];
  },
};
