import { createRequire } from 'node:module';
import type prettyModule from 'pino-pretty';
import type { LoggerOptions } from 'pino';

/**
 * The service's log format. JSON, one object a line, wherever a program reads the log (a pipe, a
 * file, a log collector, tests, CI, production); readable lines when a person runs `npm start`
 * in development on a terminal (issue 8, point 21). Which one is main.ts's choice (it alone
 * looks at the terminal); tests build apps with the logger off.
 */
export interface LogFormat {
  level: string;
  /** Readable lines (pino-pretty) instead of JSON. */
  pretty: boolean;
}

/** Every request's Authorization header is hidden, in both formats. */
const REDACT = ['req.headers.authorization'];

/**
 * Secrets that travel in a URL are cut out of the logged URL: the sign-in link's one-time
 * `token` in the query (docs/portal.md "Signing in") and the tokens of PATH_CREDENTIALS below.
 * Sessions never travel in a URL at all.
 */
export function redactUrl(url: string | undefined): string | undefined {
  return url?.replace(/([?&]token=)[^&#]*/gi, '$1[redacted]').replace(PATH_CREDENTIALS, '$1[redacted]');
}

/**
 * Path segments that are credentials: whoever has the URL may use it, so a log line must not
 * hand it on. An upload URL's token (docs/uploads.md), an export link's signed token
 * (docs/exports.md), a private share link's token, for the API and the page (docs/sharing.md).
 */
const PATH_CREDENTIALS = /(\/v1\/uploads\/(?=upt_)|\/v1\/public\/exports\/|\/v1\/public\/shared\/|^\/s\/)[^/?#]+/g;

/** Fastify's request serializer (method, url, host, address), with the URL redacted. */
const serializers = {
  req(request: { method?: string; url?: string; host?: string; ip?: string; socket?: { remotePort?: number } }) {
    return { method: request.method, url: redactUrl(request.url), host: request.host, remoteAddress: request.ip, remotePort: request.socket?.remotePort };
  },
};

export function loggerOptions(format: LogFormat): LoggerOptions & { stream?: NodeJS.WritableStream } {
  if (!format.pretty) return { level: format.level, redact: REDACT, serializers };
  // Loaded only for a terminal: JSON lines (production, tests, pipes) need none of it (issue 15).
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof prettyModule;
  return {
    level: format.level,
    redact: REDACT,
    serializers,
    // In this process and synchronous, not in a transport's worker thread: development only, and
    // the last lines before process.exit() (a failed start, "stopped") are never lost.
    stream: pretty({
      sync: true,
      colorize: true,
      translateTime: 'SYS:HH:MM:ss',
      // Fastify's request lines say what a person looks for in words ("request completed: 200
      // in 9 ms [req-…]") instead of nested objects; anything else (an error) stays, on one line.
      ignore: 'pid,hostname,reqId,req,res,responseTime',
      messageFormat: requestWords,
      singleLine: true,
    }),
  };
}

/** A log line's message, with a request's method and URL, or status and time, and its id. */
function requestWords(log: Record<string, unknown>, messageKey: string): string {
  const req = log.req as { method?: string; url?: string } | undefined;
  const res = log.res as { statusCode?: number } | undefined;
  let words = String(log[messageKey] ?? '');
  if (req?.method) words += `: ${req.method} ${req.url}`;
  else if (res?.statusCode !== undefined) words += `: ${res.statusCode} in ${Math.round(Number(log.responseTime ?? 0))} ms`;
  if (typeof log.reqId === 'string') words += ` [${log.reqId}]`;
  return words;
}

/** Readable only in development with stdout on a terminal; JSON everywhere else. */
export function wantsPrettyLogs(nodeEnv: string, stdoutIsTty: boolean | undefined): boolean {
  return nodeEnv === 'development' && stdoutIsTty === true;
}
