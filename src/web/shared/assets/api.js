/**
 * The three public endpoints the page uses (docs/answer-link.md). Every failure becomes a
 * `SendError` with a `kind` the page turns into a polite message in its language.
 */
const TIMEOUT_MS = 20_000;

export class SendError extends Error {
  /** kind: network | rate_limited | invalid | human | gone | server; retryAfter in seconds for rate_limited. */
  constructor(kind, retryAfter = null) {
    super(kind);
    this.kind = kind;
    this.retryAfter = retryAfter;
  }
}

/**
 * A fresh UUID per page load: it makes the answer idempotent (a retry returns the first outcome)
 * and counts the page load once. crypto.randomUUID needs a secure context; a phone on plain http
 * (a development server on the LAN) gets the same v4 UUID built from getRandomValues.
 */
export function newNonce() {
  if (globalThis.crypto?.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

async function request(method, url, { body, headers = {} } = {}) {
  let response;
  try {
    response = await fetch(url, {
      method,
      headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
      cache: 'no-store',
      credentials: 'omit',
      signal: AbortSignal.timeout ? AbortSignal.timeout(TIMEOUT_MS) : undefined,
    });
  } catch {
    throw new SendError('network');
  }
  if (response.ok) {
    try {
      return await response.json();
    } catch {
      throw new SendError('network');
    }
  }
  if (response.status === 429) {
    const seconds = Number.parseInt(response.headers.get('retry-after') ?? '', 10);
    throw new SendError('rate_limited', Number.isFinite(seconds) && seconds > 0 ? seconds : 60);
  }
  if (response.status === 403) throw new SendError('human');
  if (response.status === 404) throw new SendError('gone');
  if (response.status >= 400 && response.status < 500) throw new SendError('invalid');
  throw new SendError('server');
}

const base = (code) => `/v1/public/link/${encodeURIComponent(code)}`;

export const fetchView = (code) => request('GET', base(code));

export const submitAnswer = (code, body) => request('POST', `${base(code)}/answers`, { body });

/** Counted once per nonce by the server; a failure here must never stop anyone answering. */
export function markStarted(code, nonce) {
  return request('POST', `${base(code)}/started`, { body: { nonce }, headers: { 'idempotency-key': nonce } }).catch(() => undefined);
}
