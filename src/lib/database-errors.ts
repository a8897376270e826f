/**
 * Errors that mean "the database cannot be reached just now" rather than "this request is wrong
 * or the code is": the server is down or restarting, a connection was cut, or no connection could
 * be had in time. The HTTP layer answers them 503 `service_unavailable` with Retry-After, so
 * clients retry (an ask with the same Idempotency-Key is safe to retry), instead of a 500.
 *
 * PostgreSQL SQLSTATEs: class 08 (connection exception), 57P01 admin_shutdown, 57P02
 * crash_shutdown, 57P03 cannot_connect_now (starting up or in recovery), 53300
 * too_many_connections. Socket errors from node-postgres carry Node's errno codes; a few of its
 * own failures have only a message.
 */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'ENOENT']);
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const MESSAGES = /Connection terminated|Connection ended unexpectedly|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down|in recovery mode)/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || SQLSTATES.has(code) || code.startsWith('08'))) return true;
  return typeof message === 'string' && MESSAGES.test(message);
}

/**
 * Aborts PostgreSQL asks a transaction to run again: a deadlock victim (40P01) or the loser of a
 * serialization race (40001). db/transaction.ts retries them; the HTTP layer answers one that
 * outlived every retry 503 with Retry-After.
 */
export const RETRYABLE_SQLSTATES = new Set(['40P01', '40001']);
export const TRANSACTION_ATTEMPTS = 5;

export function isRetryableConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRYABLE_SQLSTATES.has(code);
}

/** A retried conflict that still failed after every attempt: the HTTP layer answers it 503 with Retry-After. */
export class TransactionConflictError extends Error {
  constructor(cause: unknown) {
    super(`the transaction was aborted by concurrent work ${TRANSACTION_ATTEMPTS} times`, { cause });
    this.name = 'TransactionConflictError';
  }
}

