import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import type { TSchema } from '@sinclair/typebox';
import { registerSharedSchema } from '../lib/validation.ts';
import { registerDocsPage } from './docs-page.ts';
import { ErrorEnvelopeSchema, ValidationItemSchema } from '../lib/error.schemas.ts';
import { QuestionDraftSchema, SavedDraftSchema } from '../modules/draft/draft.schemas.ts';
import { QuestionSchema } from '../modules/questions/questions.schemas.ts';
import { AnswerSchema, ResultSchema } from '../modules/results/results.schemas.ts';
import { InsightsSchema } from '../modules/insights/insights.schemas.ts';
import { ProjectSchema } from '../modules/projects/projects.schemas.ts';
import { DraftRecordSchema } from '../modules/drafts/drafts.schemas.ts';
import { BalanceSchema, LedgerRowSchema } from '../modules/credits/credits.schemas.ts';
import { WebhookEndpointSchema } from '../modules/events/webhooks.schemas.ts';
import {
  ConfigSchema,
  CountriesCatalogueSchema,
  CountryEntrySchema,
  StatsSchema,
  TagsCatalogueSchema,
  TemplateSchema,
} from '../modules/catalogues/catalogues.schemas.ts';
import { EstimateSchema } from '../modules/estimate/estimate.schemas.ts';
import { DisputeSchema } from '../modules/moderation/moderation.schemas.ts';
import { LinkAnswerSchema, LinkViewSchema } from '../modules/links/links.schemas.ts';

/**
 * Every resource of the spec, registered once as a shared schema: Ajv validates with it, the
 * serializer writes responses with it, and @fastify/swagger lists it under components.schemas,
 * even for resources whose endpoints come later. Order matters: a schema's references first.
 */
export const SHARED_SCHEMAS: TSchema[] = [
  ValidationItemSchema,
  ErrorEnvelopeSchema,
  QuestionDraftSchema,
  SavedDraftSchema,
  QuestionSchema,
  InsightsSchema,
  AnswerSchema,
  ResultSchema,
  ProjectSchema,
  DraftRecordSchema,
  TemplateSchema,
  BalanceSchema,
  LedgerRowSchema,
  CountryEntrySchema,
  ConfigSchema,
  CountriesCatalogueSchema,
  TagsCatalogueSchema,
  StatsSchema,
  WebhookEndpointSchema,
  EstimateSchema,
  LinkAnswerSchema,
  LinkViewSchema,
  DisputeSchema,
];

export const TAGS = [
  { name: 'Pricing and config', description: 'Public prices, configuration and catalogues; no credential needed.' },
  { name: 'Questions', description: 'Asking questions and reading what came back.' },
  { name: 'Credits', description: 'Balance and ledger.' },
  { name: 'Projects', description: 'Grouping questions.' },
  { name: 'Drafts', description: 'Questions not yet asked.' },
  { name: 'Answer link', description: 'Public endpoints of the page people answer on; no credential.' },
  { name: 'Exports', description: 'Files made from a result: the click-test heatmap PNG.' },
  { name: 'Public results', description: 'Results a requester chose to show outside the account: the public results page and private share links; no credential.' },
  { name: 'Health', description: 'Liveness and readiness for operators.' },
];

export async function registerOpenApi(app: FastifyInstance, publicBaseUrl: string): Promise<void> {
  for (const schema of SHARED_SCHEMAS) {
    app.addSchema(schema);
    registerSharedSchema(schema);
  }
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Headcount API',
        version: '2.0.0',
        summary: 'Ask short questions of verified people and get the split of their answers in minutes.',
        description:
          'Headcount sends a short question to verified people ("heads") and returns the split of their answers, ' +
          'the reasons, breakdowns and a summary. Money is counted in credits (1 credit = 1 penny). ' +
          'Errors always come as `{"error":{"code","message","details?","requestId"}}`.',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Headcount' },
        contact: { name: 'Headcount', url: publicBaseUrl },
      },
      servers: [{ url: publicBaseUrl }],
      tags: TAGS,
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'hc_live_… API key',
            description: 'An API key sent as `Authorization: Bearer <key>`. Each operation lists the scope it needs.',
          },
        },
      },
    },
    refResolver: {
      // Name components after the schemas' $id (Question, Result…) rather than def-0, def-1…
      buildLocalReference: (json) => String(json.$id),
    },
  });
  // The reference for people (Scalar, nothing from other hosts): docs-page.ts.
  await registerDocsPage(app);
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
