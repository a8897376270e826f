import type { FastifyInstance, RouteOptions } from 'fastify';
import { errorResponse } from './responses.ts';

/**
 * Every route states its scope (config.scope, null when public); from that and its schemas this
 * hook fills in what the OpenAPI description of each operation must carry: `security` and the
 * error responses it can give (spec "Endpoints": 401/403/429 for authenticated endpoints, 404 for
 * paths with an id, even one of the wrong format, 400 for those that take a body, query or
 * header). Routes hidden from the description (the description itself, the docs page) are exempt.
 */

export function registerRouteConventions(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    if (schema.hide || route.method === 'HEAD') return;
    const config = (route.config ?? {}) as { scope?: string | null; declaredScope?: string; portalOnly?: boolean; optionalCredential?: boolean };
    if (config.scope === undefined) {
      throw new Error(`Route ${String(route.method)} ${route.url} must declare config.scope (null when public).`);
    }
    const response = { ...((schema.response as Record<string, unknown>) ?? {}) };
    const add = (status: string, description: string) => {
      if (!(status in response)) response[status] = errorResponse(description);
    };
    // Path parameters are not input that can be "invalid": one that names nothing is a 404.
    const takesInput = Boolean(schema.body || schema.querystring || schema.headers);
    if (takesInput) add('400', 'The request is not valid (`validation_failed`, with `details.validation`).');
    if (config.scope) {
      add('401', 'No credential, or a malformed, unknown or revoked one (`unauthorized`).');
      add('403', config.portalOnly
        ? 'An API key was sent: this needs a portal session (`insufficient_scope`); or the person\'s role on the account does not allow it.'
        : `The credential lacks the \`${config.scope}\` scope, or a session's person is not a member of the account in \`Headcount-Account\` (\`insufficient_scope\`).`);
    }
    if (schema.params) add('404', 'No such object on this account (`not_found`).');
    if (schema.body) {
      add('413', 'The body is too large (`payload_too_large`).');
      add('415', 'The body is not JSON (`unsupported_media_type`).');
    }
    add('429', 'Too many requests (`rate_limited`); wait for the `Retry-After` header.');
    add('500', 'Unexpected failure (`internal`); the message is generic and the cause is logged.');
    add('503', 'The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header.');
    schema.response = response;
    if (config.portalOnly) schema.security = [{ portalSession: [] }];
    else if (config.scope) schema.security = [{ bearerAuth: [config.scope] }, { oauth2: [config.scope] }];
    else if (config.declaredScope) schema.security = [{}, { bearerAuth: [config.declaredScope] }];
    else if (config.optionalCredential) schema.security = [{}, { bearerAuth: [] }, { portalSession: [] }];
    else schema.security = [];
    route.schema = schema;
  });
}
