/**
 * One call of one operation over fetch: the URL and headers, a timeout per attempt, the retries
 * (rules in retry.ts), the abort signal, and the answer read whole (bytes, status, headers) or
 * turned into a HeadcountError. Everything above it (the typed `request`, the resources) goes
 * through `send`, so every call gets the same retries, timeouts and errors.
 */
import { abortReason, deadline, sleep } from './abort.ts';
import { HeadcountConnectionError, HeadcountError, HeadcountTimeoutError, type HeadcountErrorDetails } from './errors.ts';
import { newIdempotencyKey } from './idempotency.ts';
import { operationRoutes, type OperationRoute } from './operation-routes.ts';
import { MAX_RETRY_AFTER_SECONDS, neverReachedServer, parseRetryAfter, retryableStatus, retryDelayMs, safeToRepeat } from './retry.ts';
import { operationUrl } from './url.ts';
import { SDK_VERSION } from './version.ts';

export interface TransportConfig {
  baseUrl: string;
  /** The bearer credential (API key, OAuth access token or portal session), or null for public calls only. */
  credential: string | null;
  fetch: typeof fetch | undefined;
  maxRetries: number;
  timeoutMs: number;
  userAgent: string | undefined;
  /** Headers sent with every request (after the SDK's own, before the call's). */
  headers: Record<string, string>;
  /** Jitter source; tests pin it. */
  random: () => number;
}

export interface SendOptions {
  path?: Record<string, unknown> | undefined;
  query?: Record<string, unknown> | undefined;
  body?: unknown;
  headers?: Record<string, string> | undefined;
  idempotencyKey?: string | undefined;
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  maxRetries?: number | undefined;
}

/** An answer read whole. */
export interface RawResponse {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  requestId: string | null;
}

/** How long a wait call is held by the service when `seconds` is not given (docs/lifecycle.md). */
export const DEFAULT_WAIT_SECONDS = 25;
/** A wait attempt's timeout is the seconds the service holds it plus this margin for the answer to travel. */
export const WAIT_TIMEOUT_MARGIN_MS = 15_000;

/**
 * Browsers refuse to let a page set User-Agent (and a custom one would cost a CORS preflight),
 * so it is sent only elsewhere (Node, Deno, workers of those).
 */
const IN_BROWSER = typeof (globalThis as { document?: unknown }).document !== 'undefined';

function isRawBody(body: unknown): body is ArrayBuffer | ArrayBufferView | Blob {
  return body instanceof ArrayBuffer || ArrayBuffer.isView(body) || (typeof Blob !== 'undefined' && body instanceof Blob);
}

const decoder = new TextDecoder();

/** The JSON of an answer whose Content-Type says JSON; undefined for an empty body. Throws SyntaxError on bad JSON. */
export function parseJsonBody(raw: RawResponse): unknown {
  if (raw.bytes.length === 0) return undefined;
  return JSON.parse(decoder.decode(raw.bytes));
}

export function isJson(raw: RawResponse): boolean {
  return /\bjson\b/i.test(raw.headers.get('content-type') ?? '');
}

export class Transport {
  constructor(readonly config: TransportConfig) {}

  /** The route of an operation, or a TypeError naming it when it is not in this SDK's document. */
  route(operationId: string): OperationRoute {
    const route = (operationRoutes as Record<string, OperationRoute>)[operationId];
    if (!route) throw new TypeError(`Unknown operationId "${operationId}": not in the OpenAPI document this SDK was generated from`);
    return route;
  }

  /**
   * Sends the operation, retrying as retry.ts says, and returns its 2xx answer read whole;
   * throws HeadcountError (non-2xx), HeadcountConnectionError, HeadcountTimeoutError, or the
   * signal's reason when aborted.
   */
  async send(operationId: string, options: SendOptions = {}): Promise<RawResponse> {
    const route = this.route(operationId);
    const url = operationUrl(this.config.baseUrl, route.path, options.path, options.query);
    // One key for the whole call: every retry of it sends the same one, which is what makes a
    // retry of an ask whose answer was lost return that same question instead of asking again.
    const idempotencyKey = options.idempotencyKey ?? (route.idempotencyKey ? newIdempotencyKey() : undefined);
    const init = this.requestInit(route, options, idempotencyKey);
    const safe = safeToRepeat(route.method, idempotencyKey !== undefined);
    const maxRetries = Math.max(0, options.maxRetries ?? this.config.maxRetries);
    const timeoutMs = options.timeoutMs ?? this.attemptTimeout(operationId, options.query);
    const { signal } = options;

    for (let retry = 0; ; retry++) {
      if (signal?.aborted) throw abortReason(signal);
      let raw: RawResponse;
      try {
        raw = await this.attempt(operationId, url, init, timeoutMs, signal);
      } catch (error) {
        if (signal?.aborted) throw abortReason(signal);
        const again =
          retry < maxRetries &&
          (safe || (error instanceof HeadcountConnectionError && neverReachedServer(error.cause)));
        if (!again) throw error;
        await sleep(retryDelayMs(retry, null, this.config.random), signal);
        continue;
      }
      if (raw.status >= 200 && raw.status < 300) return raw;
      const error = toHeadcountError(operationId, raw);
      const again =
        retry < maxRetries &&
        retryableStatus(raw.status, error.code, safe) &&
        (error.retryAfter === null || error.retryAfter <= MAX_RETRY_AFTER_SECONDS);
      if (!again) throw error;
      await sleep(retryDelayMs(retry, error.retryAfter, this.config.random), signal);
    }
  }

  /** A wait is held by the service for its `seconds`: its attempt gets those plus a margin, whatever `timeoutMs` says. */
  private attemptTimeout(operationId: string, query: Record<string, unknown> | undefined): number {
    if (operationId !== 'waitForQuestion') return this.config.timeoutMs;
    const seconds = Number(query?.['seconds'] ?? DEFAULT_WAIT_SECONDS);
    return (Number.isFinite(seconds) ? seconds : DEFAULT_WAIT_SECONDS) * 1000 + WAIT_TIMEOUT_MARGIN_MS;
  }

  private requestInit(route: OperationRoute, options: SendOptions, idempotencyKey: string | undefined): RequestInit {
    const headers = new Headers();
    headers.set('x-headcount-client', `sdk-ts/${SDK_VERSION}`);
    if (this.config.userAgent && !IN_BROWSER) headers.set('user-agent', this.config.userAgent);
    if (this.config.credential) headers.set('authorization', `Bearer ${this.config.credential}`);
    for (const [name, value] of Object.entries(this.config.headers)) headers.set(name, value);
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
    if (idempotencyKey !== undefined) headers.set('idempotency-key', idempotencyKey);

    let body: BodyInit | undefined;
    if (options.body !== undefined) {
      const contentType = headers.get('content-type');
      if (isRawBody(options.body) || (typeof options.body === 'string' && contentType !== null && !/\bjson\b/i.test(contentType))) {
        // An upload's bytes, sent as given under the caller's Content-Type.
        body = options.body as BodyInit;
      } else {
        body = JSON.stringify(options.body);
        if (contentType === null) headers.set('content-type', 'application/json');
      }
    }
    return { method: route.method, headers, body };
  }

  /** One attempt, read whole within its timeout; the timer and the listener are released however it ends. */
  private async attempt(operationId: string, url: string, init: RequestInit, timeoutMs: number, signal: AbortSignal | undefined): Promise<RawResponse> {
    const guard = deadline(timeoutMs, signal);
    // Called as a plain function: browsers throw "Illegal invocation" when fetch runs with another `this`.
    const fetchFn = this.config.fetch ?? globalThis.fetch;
    try {
      const response = await fetchFn(url, { ...init, signal: guard.signal });
      const bytes = new Uint8Array(await response.arrayBuffer());
      return { status: response.status, headers: response.headers, bytes, requestId: response.headers.get('x-request-id') };
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      if (guard.expired()) {
        throw new HeadcountTimeoutError(`${operationId}: no answer within ${timeoutMs} ms (${init.method} ${url})`, { timeoutMs, operationId, cause: error });
      }
      const reason = error instanceof Error ? (error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message) : String(error);
      throw new HeadcountConnectionError(`${operationId}: could not reach ${new URL(url).origin} (${reason})`, { cause: error, operationId });
    } finally {
      guard.release();
    }
  }
}

/** A non-2xx answer as a HeadcountError, from the error envelope when it has one (docs/api.md "Errors"). */
export function toHeadcountError(operationId: string, raw: RawResponse): HeadcountError {
  const retryAfter = parseRetryAfter(raw.headers.get('retry-after'));
  let envelope: { code?: unknown; message?: unknown; details?: unknown; requestId?: unknown } | undefined;
  if (isJson(raw)) {
    try {
      const parsed = parseJsonBody(raw) as { error?: unknown } | undefined;
      if (parsed && typeof parsed.error === 'object' && parsed.error !== null) envelope = parsed.error;
    } catch {
      // Not JSON after all: reported below as an answer without an envelope.
    }
  }
  if (envelope && typeof envelope.code === 'string' && typeof envelope.message === 'string') {
    return new HeadcountError({
      status: raw.status,
      code: envelope.code,
      message: envelope.message,
      details: typeof envelope.details === 'object' && envelope.details !== null ? (envelope.details as HeadcountErrorDetails) : {},
      requestId: typeof envelope.requestId === 'string' ? envelope.requestId : raw.requestId,
      retryAfter,
      headers: raw.headers,
      operationId,
    });
  }
  // A proxy's page, an empty 502: no code from the service.
  const text = decoder.decode(raw.bytes.subarray(0, 200)).replace(/\s+/g, ' ').trim();
  return new HeadcountError({
    status: raw.status,
    code: 'http_error',
    message: `${operationId} answered HTTP ${raw.status} without a Headcount error body${text ? `: ${text}` : ''}`,
    requestId: raw.requestId,
    retryAfter,
    headers: raw.headers,
    operationId,
  });
}
