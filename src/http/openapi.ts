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
  /** The authorization server's endpoints and the scopes it grants, for the `oauth2` scheme. */
  oauth: { authorizationUrl: string; tokenUrl: string; resource: string; scopes: Readonly<Record<string, string>> };
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
            bearerFormat: 'hc_live_… API key, hc_ses_… portal session, or OAuth access token',
            description:
              'An API key (made in the portal under Developers) sent as `Authorization: Bearer <key>`; each operation lists the scope a key needs. ' +
              'An OAuth access token (see `oauth2`) is sent the same way, with the scopes, account and daily cap its person granted. ' +
              'A portal session token (`hc_ses_…`, from `POST /v1/auth/sign-in/verify`) works too, with every scope, for the accounts its person belongs to: ' +
              'the personal account, or the one named in the `Headcount-Account: acc_…` header (403 `insufficient_scope` when the person is not a member).',
          },
          oauth2: {
            type: 'oauth2',
            description:
              'For agents and apps acting for a person (docs/agents.md): authorization code with PKCE (S256), the `resource` parameter ' +
              `${content.oauth.resource} (tokens for it work on this API and on MCP), ` +
              'dynamic client registration and the device grant. The person picks the account, the scopes and a daily spend cap on the consent page.',
            flows: {
              authorizationCode: {
                authorizationUrl: content.oauth.authorizationUrl,
                tokenUrl: content.oauth.tokenUrl,
                refreshUrl: content.oauth.tokenUrl,
                scopes: { ...content.oauth.scopes },
              },
            },
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
