/**
 * Why an outbound request (lib/outbound-http.ts) failed, as a closed set of codes a webhook
 * delivery log or an import error can show. Messages are safe to show to the owner of the URL:
 * they name the host they gave and what went wrong, never a resolved internal address, a header,
 * a query string or a response body. What happened underneath stays on `cause` (and `address`)
 * for the log only.
 */
export type OutboundErrorCode =
  | 'bad_url' // not a URL, not http(s), credentials in it, or a redirect to such
  | 'https_required' // http: without allowHttp (R5.1)
  | 'not_public_address' // resolved to, or connected to, a non-public address (R5.1)
  | 'dns_failed' // the name did not resolve
  | 'connect_failed' // refused, unreachable
  | 'connection_reset' // the peer reset or closed the connection before a whole response
  | 'tls_failed' // certificate or handshake refused
  | 'timeout' // connect or total timeout (R5.2)
  | 'too_many_redirects' // more than the redirects allowed (R5.2)
  | 'request_failed'; // anything else

export class OutboundError extends Error {
  override readonly name = 'OutboundError';
  /** The address that was refused (not_public_address): for the log, not for the user. */
  readonly address?: string;

  constructor(readonly code: OutboundErrorCode, message: string, options: { cause?: unknown; address?: string } = {}) {
    super(message, { cause: options.cause });
    this.address = options.address;
  }
}

const CONNECT_FAILED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'EHOSTDOWN', 'ENETDOWN']);
const RESET = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'ECONNABORTED']);
const TIMEOUTS = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);
/** Node's TLS and OpenSSL certificate errors (ERR_TLS_*, ERR_SSL_*, CERT_HAS_EXPIRED, …_SELF_SIGNED_CERT…). */
const TLS = /^ERR_(TLS|SSL)_|CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/;

/** Any error thrown while making the request, as an OutboundError (the original kept as cause). */
export function toOutboundError(error: unknown, context: { timedOut: boolean; host: string; timeoutMs: number }): OutboundError {
  if (error instanceof OutboundError) return error;
  const { host } = context;
  if (context.timedOut) return new OutboundError('timeout', `No complete response from ${host} within ${context.timeoutMs} ms.`, { cause: error });
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  if (TIMEOUTS.has(code)) return new OutboundError('timeout', `${host} did not answer in time.`, { cause: error });
  if (CONNECT_FAILED.has(code)) return new OutboundError('connect_failed', `Could not connect to ${host}.`, { cause: error });
  if (RESET.has(code)) return new OutboundError('connection_reset', `${host} closed the connection before a complete response.`, { cause: error });
  if (TLS.test(code)) return new OutboundError('tls_failed', `The TLS connection to ${host} failed (certificate or handshake).`, { cause: error });
  return new OutboundError('request_failed', `The request to ${host} failed.`, { cause: error });
}
