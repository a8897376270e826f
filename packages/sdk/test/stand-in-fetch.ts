/**
 * A fetch stand-in for the unit tests: answers from a script, one entry per call, and records
 * every request as the service would have received it. An entry is a response to give, an error
 * to throw, or 'hang' (never answers; rejects with the signal's reason when aborted, as fetch does).
 */
export type Scripted =
  | { status: number; json?: unknown; body?: string | Uint8Array; headers?: Record<string, string> }
  | { throw: unknown }
  | 'hang';

export interface Recorded {
  url: string;
  method: string;
  headers: Headers;
  body: string | null;
}

export interface StandInFetch {
  fetch: typeof fetch;
  calls: Recorded[];
  /** Entries not yet used. */
  left(): number;
}

export function standInFetch(script: Scripted[] | ((call: Recorded, index: number) => Scripted)): StandInFetch {
  const calls: Recorded[] = [];
  const queue = Array.isArray(script) ? [...script] : null;
  const fetchFn = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const recorded: Recorded = {
      url: String(input),
      method: init.method ?? 'GET',
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? init.body : init.body == null ? null : '[binary]',
    };
    calls.push(recorded);
    const entry = queue ? queue.shift() : (script as (call: Recorded, index: number) => Scripted)(recorded, calls.length - 1);
    if (entry === undefined) throw new Error(`stand-in fetch: no answer scripted for call ${calls.length} (${recorded.method} ${recorded.url})`);
    const signal = init.signal ?? undefined;
    if (signal?.aborted) throw signal.reason;
    if (entry === 'hang') {
      return new Promise<Response>((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true }));
    }
    if ('throw' in entry) throw entry.throw;
    const headers = new Headers(entry.headers);
    let body: BodyInit | null = null;
    if (entry.json !== undefined) {
      body = JSON.stringify(entry.json);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json; charset=utf-8');
    } else if (entry.body !== undefined) {
      body = entry.body as BodyInit;
    }
    return new Response(body, { status: entry.status, headers });
  };
  return { fetch: fetchFn as typeof fetch, calls, left: () => queue?.length ?? 0 };
}

/** The service's error envelope. */
export function envelope(code: string, message = `${code} happened`, details?: Record<string, unknown>, requestId = 'req-1') {
  return { error: { code, message, ...(details ? { details } : {}), requestId } };
}

/** Node's fetch failure for a refused connection: TypeError('fetch failed') caused by ECONNREFUSED. */
export function refused(): TypeError {
  return new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }) });
}

/** A failure after the request may have been sent (the connection reset mid-answer). */
export function reset(): TypeError {
  return new TypeError('fetch failed', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
}
