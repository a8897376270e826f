import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorObject } from 'ajv';
import { AppError, ERRORS, type ErrorCode } from '../lib/errors.ts';
import { toValidationItems } from '../lib/validation.ts';
import { isDatabaseUnavailable, isRetryableConflict, TransactionConflictError } from '../lib/database-errors.ts';

/**
 * One handler renders every error as `{error:{code,message,details?,requestId}}` (spec "Errors").
 * Causes of unexpected errors go to the log only; the client gets a generic 500.
 */
function send(reply: FastifyReply, request: FastifyRequest, code: ErrorCode, message?: string, details?: Record<string, unknown>, headers?: Record<string, string>) {
  if (headers) for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  // Also here: router errors (frameworkErrors) are answered before any onRequest hook runs.
  reply.header('x-content-type-options', 'nosniff');
  const error: Record<string, unknown> = { code, message: message ?? ERRORS[code].message };
  if (details) error.details = details;
  error.requestId = request.id;
  return reply.status(ERRORS[code].status).send({ error });
}

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

function fromFastifyError(error: FastifyError, request: FastifyRequest): { code: ErrorCode; message?: string; details?: Record<string, unknown> } | null {
  // A path id, code, token or slug of the wrong format names nothing, like a well-formed one that
  // does not exist: 404 on every route (spec "Endpoints"), while body and query mistakes stay 400.
  if (error.validation && error.validationContext === 'params') return { code: 'not_found' };
  if (error.validation) {
    const items = toValidationItems(error.validation as ErrorObject[]);
    const part = PART_NAMES[error.validationContext ?? 'body'] ?? 'request';
    const message = items.length === 1 ? `Invalid ${part}: ${items[0].message}` : `Invalid ${part}: ${items.length} fields need fixing; see details.validation.`;
    return { code: 'validation_failed', message, details: { validation: items } };
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { code: 'unsupported_media_type' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE': {
      // The route's own limit (uploads have larger ones than JSON routes), so a client can tell how much to cut.
      const limit = request.routeOptions.bodyLimit;
      return limit ? { code: 'payload_too_large', message: `The request body is larger than this endpoint takes (${limit.toLocaleString('en-GB')} bytes).`, details: { limit } } : { code: 'payload_too_large' };
    }
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { code: 'validation_failed', message: 'The body is empty; send a JSON object.', details: { validation: [{ field: 'body', code: 'required', message: 'A JSON body is required.' }] } };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { code: 'validation_failed', message: 'The body is not valid JSON.', details: { validation: [{ field: 'body', code: 'invalid_format', message: 'The body is not valid JSON.' }] } };
  }
  if (error instanceof SyntaxError && error.statusCode === 400) {
    return { code: 'validation_failed', message: 'The body is not valid JSON.', details: { validation: [{ field: 'body', code: 'invalid_format', message: 'The body is not valid JSON.' }] } };
  }
  if (error.statusCode === 429) return { code: 'rate_limited' };
  return null;
}

/**
 * Errors the router raises before any route is found (Fastify's `frameworkErrors`), in the same
 * envelope: a path that does not decode is a 404; a path parameter longer than `maxParamLength`
 * (set well above every id and token this API issues) names nothing here, so it is a 404 like any
 * unknown id, not Fastify's bare 414. `page` answers first for addresses of pages for people
 * (true when it did: web/shared/page-router-errors.ts).
 */
export function createFrameworkErrors(page?: (request: FastifyRequest, reply: FastifyReply) => boolean) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (page?.(request, reply)) return reply;
    return envelope(error, request, reply);
  };
}

function envelope(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return send(reply, request, 'not_found', 'There is nothing here: a part of the path is longer than any id.');
  // A path that does not decode (a broken percent-encoding) names nothing either: 404, like an id
  // of the wrong format (spec "Endpoints"), so an id-bearing route answers every bad id the same.
  return send(reply, request, 'not_found', 'There is nothing here: the path does not decode (a broken percent-encoding).');
}

/** Longer than any path parameter a route accepts (the longest, a share token, is at most 200). */
export const MAX_PARAM_LENGTH = 500;

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, 'service error');
      return send(reply, request, error.code, error.message, error.details, error.headers);
    }
    const mapped = fromFastifyError(error, request);
    if (mapped) return send(reply, request, mapped.code, mapped.message, mapped.details);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.warn({ err: error }, 'unmapped client error');
      return send(reply, request, error.statusCode === 404 ? 'not_found' : error.statusCode === 405 ? 'method_not_allowed' : 'validation_failed', error.statusCode === 404 ? undefined : error.message);
    }
    if (isDatabaseUnavailable(error)) {
      // Down or restarting: worth retrying shortly (R7.4), not a bug in this request.
      request.log.warn({ err: error }, 'database unavailable');
      return send(reply, request, 'service_unavailable', 'The database cannot be reached just now; retry after the Retry-After header.', undefined, { 'retry-after': '2' });
    }
    if (error instanceof TransactionConflictError || isRetryableConflict(error)) {
      // Concurrent work kept aborting this transaction (deadlock or serialization failure) even
      // after the service's own retries (db/transaction.ts): nothing was changed; try again.
      request.log.warn({ err: error }, 'transaction conflict after retries');
      return send(reply, request, 'service_unavailable', 'The service is busy with concurrent changes to the same records; nothing was changed. Retry after the Retry-After header.', undefined, { 'retry-after': '1' });
    }
    request.log.error({ err: error }, 'unexpected error');
    return send(reply, request, 'internal');
  });

  app.setNotFoundHandler((request, reply) => send(reply, request, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}.`));
}
