import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ERRORS, type ErrorCode } from '../lib/errors.ts';

/**
 * Errors Node's HTTP parser raises before Fastify sees a request (Fastify's `clientErrorHandler`,
 * the server's 'clientError' event), answered in the same envelope as every other error
 * (`{error:{code,message,details?,requestId}}`) on a minimal HTTP/1.1 response, then the
 * connection is closed: after a parse error nothing more can be read from it.
 *
 * - 408 `request_timeout`: the headers did not arrive within HEADERS_TIMEOUT_SECONDS or the whole
 *   request within REQUEST_TIMEOUT_SECONDS (a slow or stalled client).
 * - 431 `headers_too_large`: the headers are over Node's limit (16 KiB).
 * - 400 `validation_failed`: anything else the parser refuses (a NUL or other control character in
 *   a header, an obs-fold continuation line, a malformed request line, conflicting lengths).
 *
 * Nothing is written when a response to the request has already started (its status line is on
 * the wire; Node's own handler makes the same check) or the socket is gone: it is just closed.
 */
const PARSE_PROBLEMS: Record<string, { field: string; message: string }> = {
  HPE_INVALID_HEADER_TOKEN: { field: 'header', message: 'A header has a character HTTP does not allow (such as NUL or another control character).' },
  HPE_INVALID_METHOD: { field: 'request line', message: 'The request line is malformed (method).' },
  HPE_INVALID_URL: { field: 'request line', message: 'The request line is malformed (target).' },
  HPE_INVALID_VERSION: { field: 'request line', message: 'The request line is malformed (HTTP version).' },
  HPE_INVALID_CONSTANT: { field: 'request line', message: 'The request line is malformed.' },
  HPE_UNEXPECTED_CONTENT_LENGTH: { field: 'header', message: 'Content-Length and Transfer-Encoding may not both be sent.' },
  HPE_INVALID_CONTENT_LENGTH: { field: 'header', message: 'Content-Length is not a valid number.' },
  HPE_INVALID_TRANSFER_ENCODING: { field: 'header', message: 'Transfer-Encoding is not valid.' },
  HPE_INVALID_CHUNK_SIZE: { field: 'body', message: 'A chunk size of the chunked body is not valid.' },
};

interface Answer {
  code: ErrorCode;
  message?: string;
  details?: Record<string, unknown>;
}

export function answerFor(error: NodeJS.ErrnoException): Answer {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { code: 'request_timeout' };
  if (error.code === 'HPE_HEADER_OVERFLOW') return { code: 'headers_too_large' };
  const known = error.code ? PARSE_PROBLEMS[error.code] : undefined;
  const item = known ?? { field: 'request', message: 'The request is not valid HTTP/1.1.' };
  return {
    code: 'validation_failed',
    message: `The request is not valid HTTP: ${item.message}`,
    details: { validation: [{ field: item.field, code: 'invalid_format', message: item.message }] },
  };
}

/** The whole response, status line to body. */
export function clientErrorResponse(answer: Answer, requestId: string): string {
  const { status } = ERRORS[answer.code];
  const error: Record<string, unknown> = { code: answer.code, message: answer.message ?? ERRORS[answer.code].message };
  if (answer.details) error.details = answer.details;
  error.requestId = requestId;
  const body = JSON.stringify({ error });
  const reason = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }[status as 400 | 408 | 431] ?? 'Error';
  return [
    `HTTP/1.1 ${status} ${reason}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    `X-Request-Id: ${requestId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

export function clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // Node's own socketOnError looks at the same internal field: a response already on the wire.
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const answer = answerFor(error);
  const requestId = randomUUID();
  // Debug, not info: a flood of broken or stalled connections must not flood the log too.
  this.log.debug({ err: error, requestId, remoteAddress: socket.remoteAddress }, `client error: ${answer.code}`);
  socket.end(clientErrorResponse(answer, requestId), () => socket.destroy());
}
