import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import type { TSchema } from '@sinclair/typebox';
import { registerSharedSchema } from '../lib/validation.ts';
import { registerDocsPage } from './docs-page.ts';
/**
 * Every resource of the spec, registered once as a shared schema: Ajv validates with it, the
 * serializer writes responses with it, and @fastify/swagger lists it under components.schemas,
 * even for resources whose endpoints come later. The schemas and tags come from
 * src/openapi-schemas.ts (app.ts hands them over): http/ knows no feature.
 */
export interface OpenApiContent {
  /** Shared component schemas, references first. */
  schemas: readonly TSchema[];
  /** The reference's sections, in the order people read them. */
  tags: readonly { name: string; description: string }[];
}

export async function registerOpenApi(app: FastifyInstance, publicBaseUrl: string, content: OpenApiContent): Promise<void> {
  for (const schema of content.schemas) {
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
      tags: [...content.tags],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'hc_live_… API key, or hc_ses_… portal session',
            description:
              'An API key (made in the portal under Developers) sent as `Authorization: Bearer <key>`; each operation lists the scope a key needs. ' +
              'A portal session token (`hc_ses_…`, from `POST /v1/auth/sign-in/verify`) works too, with every scope, for the accounts its person belongs to: ' +
              'the personal account, or the one named in the `Headcount-Account: acc_…` header (403 `insufficient_scope` when the person is not a member).',
          },
          portalSession: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'hc_ses_… portal session',
            description:
              'A signed-in person\'s session (`POST /v1/auth/sign-in`, then `/v1/auth/sign-in/verify`), sent as `Authorization: Bearer <token>`. ' +
              'Operations marked with it ("portal session only" in the spec) refuse API keys with 403 `insufficient_scope`. ' +
              'The `Headcount-Account: acc_…` header chooses which of the person\'s accounts the request acts for; without it, the personal account.',
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
