/**
 * What a call can throw besides the AbortSignal's reason:
 * - HeadcountError: the service answered, with a status that is not 2xx (after any retries);
 * - HeadcountConnectionError: no answer at all (refused, reset, DNS, TLS) after any retries;
 * - HeadcountTimeoutError: an attempt took longer than its timeout (after any retries), or
 *   waitForResult reached its `timeoutMs`.
 * Switch on `error.code`, never on `message` (docs/api.md "Versioning": messages may be reworded,
 * codes are stable).
 */
import type { Schemas } from './types.ts';

/**
 * Every `error.code` the service can answer (docs/api.md "Errors"; the service's catalogue is
 * src/lib/errors.ts, and errors.test.ts keeps this list equal to it). The document types `code`
 * as a plain string and names the codes only in prose, so the list is kept here.
 */
export const HEADCOUNT_ERROR_CODES = [
  'validation_failed',
  'sign_in_failed',
  'unauthorized',
  'insufficient_credits',
  'spend_cap_exceeded',
  'insufficient_scope',
  'human_check_failed',
  'not_found',
  'method_not_allowed',
  'request_timeout',
  'idempotency_conflict',
  'idempotency_in_progress',
  'external_ref_set',
  'too_few_answers',
  'conflict',
  'link_expired',
  'payload_too_large',
  'unsupported_media_type',
  'content_refused',
  'upload_refused',
  'import_failed',
  'rate_limited',
  'headers_too_large',
  'internal',
  'service_unavailable',
] as const;

/** Codes the SDK gives an answer that carried no Headcount error envelope (a proxy's 502 page, a body that is not JSON). */
export const SDK_ERROR_CODES = ['http_error', 'invalid_response'] as const;

export type HeadcountErrorCode = (typeof HEADCOUNT_ERROR_CODES)[number] | (typeof SDK_ERROR_CODES)[number];

/** One item of `details.validation` on a 400 `validation_failed`: which field, and why (its `code`). */
export type ValidationItem = Schemas['ValidationItem'];

/** `error.details`: per code (e.g. `needed` and `available` on `insufficient_credits`; docs/api.md). */
export interface HeadcountErrorDetails {
  validation?: ValidationItem[];
  [key: string]: unknown;
}

export interface HeadcountErrorInit {
  status: number;
  code: string;
  message: string;
  details?: HeadcountErrorDetails;
  requestId?: string | null;
  retryAfter?: number | null;
  headers?: Headers;
  operationId?: string;
}

/** A response from the service whose status is not 2xx, read from its error envelope. */
export class HeadcountError extends Error {
  override readonly name = 'HeadcountError';
  /** The HTTP status (400, 402, 404, 409, 429, 503, …). */
  readonly status: number;
  /**
   * The stable machine code: one of HEADCOUNT_ERROR_CODES (typed, so `error.code === 'insufficient_credits'`
   * is checked for typos), or a newer service's code this SDK does not know yet.
   */
  readonly code: HeadcountErrorCode | (string & {});
  /** `error.details` of the envelope (`{}` when it had none). */
  readonly details: HeadcountErrorDetails;
  /** The request id (envelope's `requestId`, else the X-Request-Id header): quote it when asking for help. */
  readonly requestId: string | null;
  /** Seconds the service asked to wait (Retry-After, seconds or an HTTP date), or null. */
  readonly retryAfter: number | null;
  /** The response's headers. */
  readonly headers: Headers;
  /** The operation that failed (`askQuestion`, …). */
  readonly operationId: string | undefined;

  constructor(init: HeadcountErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? {};
    this.requestId = init.requestId ?? null;
    this.retryAfter = init.retryAfter ?? null;
    this.headers = init.headers ?? new Headers();
    this.operationId = init.operationId;
  }

  /** `details.validation` of a 400, or an empty list: one item per field to fix. */
  get validation(): ValidationItem[] {
    return Array.isArray(this.details.validation) ? this.details.validation : [];
  }

  /** True when `error` is a HeadcountError with one of these codes (narrows `error.code`). */
  static is<C extends HeadcountErrorCode>(error: unknown, ...codes: C[]): error is HeadcountError & { readonly code: C } {
    return error instanceof HeadcountError && (codes.length === 0 || (codes as string[]).includes(error.code));
  }
}

/** The request got no answer: the connection was refused or broke, the name did not resolve, TLS failed. */
export class HeadcountConnectionError extends Error {
  override readonly name = 'HeadcountConnectionError';
  readonly operationId: string | undefined;
  constructor(message: string, options: { cause?: unknown; operationId?: string } = {}) {
    super(message, { cause: options.cause });
    this.operationId = options.operationId;
  }
}

/**
 * An attempt took longer than its timeout (the client's `timeoutMs`, a wait's seconds + 15 s),
 * or waitForResult ran out of its `timeoutMs`; then `lastResult` is the last result it saw.
 */
export class HeadcountTimeoutError extends Error {
  override readonly name = 'HeadcountTimeoutError';
  readonly timeoutMs: number;
  readonly operationId: string | undefined;
  readonly lastResult: Schemas['Result'] | undefined;
  constructor(message: string, options: { timeoutMs: number; operationId?: string; lastResult?: Schemas['Result']; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.timeoutMs = options.timeoutMs;
    this.operationId = options.operationId;
    this.lastResult = options.lastResult;
  }
}
