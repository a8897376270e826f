/**
 * The closed catalogue of errors a client can see (spec "Errors"; ARCHITECTURE §3 rule 4 and §4
 * "Status codes not shown"). Services throw AppError; one handler renders the envelope
 * `{error:{code,message,details?}}`. Anything else is a 500 with a generic message.
 */
export const ERRORS = {
  validation_failed: { status: 400, message: 'The request is not valid; see details.validation for what to fix.' },
  sign_in_failed: { status: 400, message: 'The code is wrong or no longer works; check it, or ask for a new one.' },
  unauthorized: { status: 401, message: 'A valid credential is required: send an API key or a portal session token as "Authorization: Bearer <token>".' },
  insufficient_credits: { status: 402, message: 'There are not enough credits for this; nothing was spent.' },
  spend_cap_exceeded: { status: 402, message: "This would go over the key's daily spend cap; nothing was spent." },
  insufficient_scope: { status: 403, message: 'This key does not have the scope this request needs.' },
  human_check_failed: { status: 403, message: 'The human check failed; please try again.' },
  not_found: { status: 404, message: 'There is nothing here.' },
  method_not_allowed: { status: 405, message: 'This method is not allowed here.' },
  request_timeout: { status: 408, message: 'The request did not arrive in time; send it again without pauses.' },
  idempotency_conflict: { status: 409, message: 'This Idempotency-Key was already used with a different request.' },
  idempotency_in_progress: { status: 409, message: 'A request with this Idempotency-Key is still running; retry shortly.' },
  external_ref_set: { status: 409, message: 'externalRef is already set and cannot be changed.' },
  too_few_answers: { status: 409, message: 'A summary needs at least three written answers.' },
  conflict: { status: 409, message: 'The request conflicts with the current state.' },
  link_expired: { status: 410, message: 'This link has expired; make a new one.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  unsupported_media_type: { status: 415, message: 'Send the body as JSON with "Content-Type: application/json".' },
  content_refused: { status: 422, message: 'The question was refused for its content; nothing was spent.' },
  upload_refused: { status: 422, message: 'The file was refused: its bytes are not what was declared, or not a file we accept (docs/uploads.md); nothing was stored.' },
  import_failed: { status: 422, message: 'The image could not be imported from that URL (docs/uploads.md); nothing was stored.' },
  rate_limited: { status: 429, message: 'Too many requests; wait for the time in the Retry-After header.' },
  headers_too_large: { status: 431, message: 'The request headers are too large.' },
  internal: { status: 500, message: 'Something went wrong on our side; it has been logged.' },
  service_unavailable: { status: 503, message: 'The service is not ready; try again shortly.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

export type ValidationCode =
  | 'required'
  | 'too_long'
  | 'too_short'
  | 'too_many'
  | 'too_few'
  | 'out_of_range'
  | 'invalid_format'
  | 'unknown_value'
  | 'not_allowed'
  | 'in_past';

export interface ValidationItem {
  field: string;
  code: ValidationCode;
  message: string;
}

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly details?: Record<string, unknown>,
    /** Extra response headers, e.g. Retry-After. */
    readonly headers?: Record<string, string>,
    /** What went wrong underneath (logged, never sent). */
    options?: { cause?: unknown },
  ) {
    super(message ?? ERRORS[code].message, options);
    this.name = 'AppError';
    this.status = ERRORS[code].status;
  }
}

export function validationError(items: ValidationItem[], message?: string): AppError {
  const summary = message ?? (items.length === 1 ? items[0].message : `${items.length} fields need fixing; see details.validation.`);
  return new AppError('validation_failed', summary, { validation: items });
}

export const notFound = (what = 'There is nothing here.'): AppError => new AppError('not_found', what);
