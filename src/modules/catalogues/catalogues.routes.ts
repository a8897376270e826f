import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import { Closed, RefOf } from '../../lib/typebox.ts';
import type { CataloguesService } from './catalogues.service.ts';
import { ConfigSchema, CountriesCatalogueSchema, StatsSchema, TagsCatalogueSchema, TemplateSchema } from './catalogues.schemas.ts';

const TAG = ['Pricing and config'];

/** Public catalogues (spec "Pricing and config"): no credential, rate limited per IP. */
export function cataloguesRoutes(deps: { catalogues: CataloguesService }): FastifyPluginAsync {
  const { catalogues } = deps;
  return async (app) => {
    app.get('/v1/config', {
      config: { scope: null },
      schema: { operationId: 'getConfig', tags: TAG, summary: 'Rates, answering countries, question languages and pay', response: { 200: RefOf(ConfigSchema) } },
    }, async () => catalogues.config());

    app.get('/v1/templates', {
      config: { scope: null, declaredScope: 'templates:read' },
      schema: {
        operationId: 'listTemplates',
        tags: TAG,
        summary: 'Ready-made drafts, each with its price',
        description: 'Declares the `templates:read` scope, but no credential is required.',
        response: { 200: Closed({ templates: Type.Array(RefOf(TemplateSchema)) }) },
      },
    }, async () => ({ templates: catalogues.templates() }));

    app.get('/v1/public/countries', {
      config: { scope: null },
      schema: { operationId: 'listCountries', tags: TAG, summary: 'Answering countries with languages and the size of their pools', response: { 200: RefOf(CountriesCatalogueSchema) } },
    }, async () => catalogues.countries());

    app.get('/v1/tags', {
      config: { scope: null },
      schema: { operationId: 'listTags', tags: TAG, summary: 'Tag groups and the tags a question can target', response: { 200: RefOf(TagsCatalogueSchema) } },
    }, async () => catalogues.tags());

    app.get('/v1/public/stats', {
      config: { scope: null },
      schema: { operationId: 'getStats', tags: TAG, summary: 'Heads online, answers this week, time to 50 answers, head earnings', response: { 200: RefOf(StatsSchema) } },
    }, async () => catalogues.stats());
  };
}
