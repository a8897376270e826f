import { HeadcountConnectionError, HeadcountError, HeadcountTimeoutError } from '@headcount/sdk';

/**
 * What `headcount` exits with. Scripts switch on these, so they are part of the tool's contract:
 * printed in `headcount --help` and in the README.
 */
export const EXIT = {
  ok: 0,
  /** The API refused the request (a 4xx other than those below): fix the request. */
  api: 1,
  /** The command line is wrong (unknown flag, missing argument, a flag's value), or a file would be overwritten. */
  usage: 2,
  /** No credential, or the one given was refused (401), or lacks the scope (403). */
  auth: 3,
  /** Not enough credits, or the daily spend cap would be passed (402). */
  credits: 4,
  /** The service could not be reached, answered 5xx, or kept rate-limiting (429) after the retries. */
  unavailable: 5,
  /** `--wait` ran out of `--timeout` before the question closed (it keeps running). */
  waitTimeout: 6,
  /** Ctrl-C (SIGINT): the wait stops; the question keeps running. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODES_HELP = `
Exit codes:
  0    ok
  1    the API refused the request (4xx), or an estimate's draft cannot be asked as it is
  2    usage error: unknown flag, missing or bad value, a file that --force would overwrite
  3    not signed in, or the credential was refused (401) or lacks the scope (403)
  4    not enough credits, or the daily spend cap would be passed (402)
  5    network error, or the service is unavailable (5xx, or still 429 after retries)
  6    --wait timed out (--timeout); the question keeps running
  130  interrupted (Ctrl-C); a question being waited for keeps running

Environment:
  HEADCOUNT_BASE_URL   the service (same as --base-url)
  HEADCOUNT_API_KEY    an API key to use instead of the saved credential
  XDG_CONFIG_HOME      where credentials are kept ($XDG_CONFIG_HOME/headcount/credentials.json, default ~/.config)
  NO_COLOR             no colour in the output
`;

/** A mistake on the command line found by the tool itself (commander finds the rest): exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Signed out, or a credential that cannot be used: exit 3 (the message says what to do). */
export class AuthError extends Error {
  override readonly name = 'AuthError';
  constructor(
    message: string,
    readonly code = 'unauthorized',
  ) {
    super(message);
  }
}

/** A call outside the SDK (the OAuth endpoints) that the service answered with an error. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
  ) {
    super(message);
  }
}

/** The wait ran out of time (exit 6). */
export class WaitTimeoutError extends Error {
  override readonly name = 'WaitTimeoutError';
  constructor(
    readonly questionId: string,
    readonly seconds: number,
  ) {
    super(`still waiting for ${questionId} after ${seconds} s`);
  }
}

/** Ctrl-C (exit 130). */
export class InterruptedError extends Error {
  override readonly name = 'InterruptedError';
}

/** A failure that already printed what it had to say and only carries the exit code. */
export class QuietExit extends Error {
  override readonly name = 'QuietExit';
  constructor(readonly exitCode: ExitCode) {
    super(`exit ${exitCode}`);
  }
}

export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof QuietExit) return error.exitCode;
  if (error instanceof UsageError) return EXIT.usage;
  if (error instanceof AuthError) return EXIT.auth;
  if (error instanceof WaitTimeoutError) return EXIT.waitTimeout;
  if (error instanceof InterruptedError) return EXIT.interrupted;
  if (error instanceof HeadcountError) {
    const status = error.status;
    if (status === 401 || status === 403) return EXIT.auth;
    if (status === 402 || error.code === 'insufficient_credits' || error.code === 'spend_cap_exceeded') return EXIT.credits;
    if (status === 429 || status >= 500) return EXIT.unavailable;
    return EXIT.api;
  }
  if (error instanceof HttpError) return error.status === 429 || error.status >= 500 ? EXIT.unavailable : error.status === 401 || error.status === 403 ? EXIT.auth : EXIT.api;
  if (error instanceof HeadcountConnectionError || error instanceof HeadcountTimeoutError) return EXIT.unavailable;
  if (isNetworkError(error)) return EXIT.unavailable;
  return EXIT.api;
}

/** A fetch that failed before any response (refused, reset, DNS): undici's TypeError with a cause. */
export function isNetworkError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EPIPE|UND_ERR_)/.test(code)) return true;
  return error.name === 'TypeError' && error.message === 'fetch failed';
}

/**
 * The one line a person reads: `Error: insufficient_credits: You need 600 credits … (request req_…)`.
 * Validation items, when the API gives them, follow on their own lines (`  - draft.n: …`).
 */
export function formatError(error: unknown): string {
  if (error instanceof HeadcountError) {
    const request = error.requestId ? ` (request ${error.requestId})` : '';
    const lines = [`Error: ${error.code}: ${oneLine(error.message)}${request}`];
    for (const item of validationItems(error.details)) lines.push(`  - ${item.field}: ${oneLine(item.message)} (${item.code})`);
    const retry = error.retryAfter;
    if ((error.status === 429 || error.status === 503) && typeof retry === 'number' && retry > 0) lines.push(`  Try again in ${retry} s.`);
    return lines.join('\n');
  }
  if (error instanceof HttpError) return `Error: ${error.code}: ${oneLine(error.message)}${error.requestId ? ` (request ${error.requestId})` : ''}`;
  if (error instanceof HeadcountTimeoutError) return `Error: timeout: ${oneLine(error.message)}`;
  if (error instanceof HeadcountConnectionError || isNetworkError(error)) {
    const cause = (error as Error).cause as { code?: string; message?: string } | undefined;
    const why = cause?.code ?? cause?.message;
    return `Error: network: ${oneLine((error as Error).message)}${why && !(error as Error).message.includes(why) ? ` (${why})` : ''}`;
  }
  if (error instanceof UsageError) return `Error: ${oneLine(error.message)}`;
  if (error instanceof AuthError) return `Error: ${error.code}: ${oneLine(error.message)}`;
  if (error instanceof Error) return `Error: ${oneLine(error.message)}`;
  return `Error: ${String(error)}`;
}

export function validationItems(details: unknown): Array<{ field: string; code: string; message: string }> {
  const list = (details as { validation?: unknown } | null | undefined)?.validation;
  if (!Array.isArray(list)) return [];
  return list.filter((item): item is { field: string; code: string; message: string } => typeof item?.field === 'string' && typeof item?.message === 'string');
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
