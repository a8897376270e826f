import Fastify, { type FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Container } from './container.ts';
import { createFrameworkErrors, MAX_PARAM_LENGTH, registerErrorHandling } from './http/error-handler.ts';
import { pageRouterErrors } from './web/shared/page-router-errors.ts';
import { genRequestId } from './http/request-id.ts';
import { loggerOptions } from './lib/logger.ts';
import { compileFor } from './lib/validation.ts';
import { buildSerializerFactory } from './http/serializer.ts';
import { registerJsonBody } from './http/json-body.ts';
import { registerClosing, serverOptions } from './http/server-options.ts';
import { registerAuth } from './http/auth.ts';
import { registerRouteConventions } from './http/route-conventions.ts';
import { registerOpenApi } from './http/openapi.ts';
import { metricsEndpoint, registerRequestMetrics } from './http/metrics.ts';
import { SCOPE_MEANINGS } from './lib/actor.ts';
import { API_TAGS, SHARED_SCHEMAS } from './openapi-schemas.ts';
import { connectRateLimitRedis, createWeightedStore, HALF_COST_SUFFIX } from './http/rate-limit-store.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { databaseReadiness } from './db/readiness.ts';
import { cataloguesRoutes } from './modules/catalogues/catalogues.routes.ts';
import { audiencesRoutes } from './modules/audiences/audiences.routes.ts';
import { estimateRoutes } from './modules/estimate/estimate.routes.ts';
import { creditsRoutes } from './modules/credits/credits.routes.ts';
import { draftsRoutes } from './modules/drafts/drafts.routes.ts';
import { questionsRoutes } from './modules/questions/questions.routes.ts';
import { projectsRoutes } from './modules/projects/projects.routes.ts';
import { linkRoutes } from './modules/links/links.routes.ts';
import { moderationRoutes } from './modules/moderation/moderation.routes.ts';
import { sharingRoutes } from './modules/sharing/sharing.routes.ts';
import { insightsRoutes } from './modules/insights/insights.routes.ts';
import { answerPageRoutes } from './web/answer-page/answer-page.routes.ts';
import { resultsPageRoutes } from './web/results-page/results-page.routes.ts';
import { homePageRoutes } from './web/home-page/home-page.routes.ts';
import { resultsRoutes } from './modules/results/results.routes.ts';
import { exportsRoutes } from './modules/exports/exports.routes.ts';
import { peopleRoutes } from './modules/people/people.routes.ts';
import { keysRoutes } from './modules/accounts/keys.routes.ts';
import { teamsRoutes } from './modules/teams/teams.routes.ts';
import { billingRoutes } from './modules/billing/billing.routes.ts';
import { testProviderRoutes } from './web/test-provider/test-provider.routes.ts';
import { portalRoutes } from './web/portal/portal.routes.ts';
import { connectionsRoutes } from './modules/connections/connections.routes.ts';
import { webhooksRoutes } from './modules/events/webhooks.routes.ts';
import { oauthRoutes } from './oauth/oauth.routes.ts';
import { supportRoutes } from './modules/support/support.routes.ts';
import { mcpRoutes } from './mcp/mcp.routes.ts';
import { uploadsRoutes } from './modules/uploads/uploads.routes.ts';

export interface BuildOptions {
  /** Pass false to get bare logging-off behaviour in tests regardless of LOG_LEVEL. */
  logger?: boolean;
  /** Readable log lines instead of JSON (main.ts: development on a terminal; lib/logger.ts). */
  prettyLogs?: boolean;
  /** Where JSON log lines go instead of stdout (tests that read the log). */
  logStream?: NodeJS.WritableStream;
}

/** A Fastify instance with every route, that does not listen (tests use inject). */
export async function buildApp(container: Container, options: BuildOptions = {}): Promise<FastifyInstance> {
  const { config } = container;
  // The pages' CSS and scripts, read once (by the container) for every page route and the router's page errors.
  const { assets } = container;
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : { ...loggerOptions({ level: config.logLevel, pretty: options.prettyLogs === true }), ...(options.logStream ? { stream: options.logStream } : {}) },
    genReqId: genRequestId,
    bodyLimit: config.bodyLimitBytes,
    // TRUSTED_PROXIES, timeouts, Node-level errors and the shutdown 503 (http/server-options.ts).
    ...serverOptions(config),
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: createFrameworkErrors(pageRouterErrors(assets, config)),
    schemaController: { compilersFactory: { buildSerializer: buildSerializerFactory as never } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // JSON only: a text/plain body is a 415, not a string that fails validation.
  app.removeContentTypeParser('text/plain');
  registerJsonBody(app);
  app.setValidatorCompiler(({ schema, httpPart }) => compileFor(httpPart, schema));
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // No response may be sniffed into another type (a JSON error rendered as HTML, say).
    reply.header('x-content-type-options', 'nosniff');
  });
  registerClosing(app);
  registerErrorHandling(app);
  registerRouteConventions(app);
  await registerOpenApi(app, config.publicBaseUrl, {
    schemas: SHARED_SCHEMAS,
    tags: API_TAGS,
    oauth: { authorizationUrl: `${container.oauthUrls.issuer}/authorize`, tokenUrl: `${container.oauthUrls.issuer}/token`, resource: container.oauthUrls.mcp, scopes: SCOPE_MEANINGS },
  });
  registerAuth(app, container.authenticate);
  // Every response counted; GET /metrics served here only with METRICS_TOKEN (docs/operations.md "Metrics").
  registerRequestMetrics(app, container.metrics);
  const metrics = metricsEndpoint(container.metrics, config.metrics.token);

  // With REDIS_URL the counters are shared by every process (R6.3). If Redis fails, requests pass
  // uncounted with a logged warning (skipOnError: fail open), never a 500: money limits live in
  // PostgreSQL and never depend on Redis.
  const redis = config.redisUrl ? connectRateLimitRedis(config.redisUrl, app.log) : null;
  if (redis) app.addHook('onClose', redis.close);
  await app.register(rateLimit, {
    global: true,
    hook: 'onRequest',
    timeWindow: 60_000,
    skipOnError: true,
    store: createWeightedStore(redis?.redis ?? null, { namespace: config.rateLimit.redisPrefix, onRedisError: redis?.onRedisError }),
    keyGenerator: (request) => {
      // Per credential: a key, or a portal session (each session of a person has its own budget).
      const base = request.actor ? (request.actor.keyId ? `key:${request.actor.keyId}` : `ses:${request.actor.session?.id}`) : `ip:${request.ip}`;
      return request.routeOptions.config.rateCost === 0.5 ? base + HALF_COST_SUFFIX : base;
    },
    max: (request) => (request.actor ? config.rateLimit.perKeyPerMinute : config.rateLimit.perIpPerMinute),
    errorResponseBuilder: (_request, context) => {
      const error = new Error(`Too many requests; retry after ${Math.ceil(context.ttl / 1000)} s.`) as Error & { statusCode: number };
      error.statusCode = 429;
      return error;
    },
    // A scraper with the metrics token is never limited away; /metrics without it is counted like any request.
    allowList: (request) => request.url === '/healthz' || request.url === '/readyz' || metrics.isScrape(request),
  });
  metrics.register(app);

  await app.register(healthRoutes(() => databaseReadiness(container.db)));
  await app.register(cataloguesRoutes(container));
  await app.register(audiencesRoutes(container));
  await app.register(estimateRoutes(container));
  await app.register(creditsRoutes(container));
  await app.register(draftsRoutes(container));
  await app.register(questionsRoutes(container));
  await app.register(projectsRoutes(container));
  await app.register(linkRoutes(container));
  await app.register(moderationRoutes(container));
  await app.register(sharingRoutes(container));
  await app.register(insightsRoutes(container));
  await app.register(answerPageRoutes(container, assets));
  await app.register(resultsPageRoutes(container, assets));
  await app.register(homePageRoutes(container, assets));
  await app.register(resultsRoutes(container));
  await app.register(exportsRoutes(container));
  await app.register(peopleRoutes(container));
  await app.register(keysRoutes(container));
  await app.register(connectionsRoutes(container));
  await app.register(webhooksRoutes(container));
  await app.register(teamsRoutes(container));
  await app.register(billingRoutes(container));
  if (container.paymentProvider.name === 'test') await app.register(testProviderRoutes(container, assets));
  await app.register(portalRoutes(container, assets), { prefix: '/app' });
  await app.register(oauthRoutes(container.oauthProvider, { registrationsPerHour: config.rateLimit.oauthRegistrationsPerHour }));
  await app.register(supportRoutes(container));
  await app.register(uploadsRoutes(container));
  // The MCP server for AI agents (docs/agents.md): tools over the same services as the routes above.
  await app.register(mcpRoutes(container, { publicBaseUrl: config.publicBaseUrl }));
  return app;
}
