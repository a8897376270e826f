import net from 'node:net';

/**
 * Long-poll clients for the wait scenario: many GETs held open at once, one TCP connection each,
 * behaving like a client of GET /v2/questions/{id}/wait: when an answer says `done: false` (the
 * wait's `seconds` ran out) it asks again on the same connection. Each poller ends with its first
 * `done: true`, an HTTP error or a network error; `stop()` makes pending re-polls give up.
 *
 * The client is what measures, so it must not be what is slow: 10,000 responses land in this one
 * process within a second, and Node's http client (an IncomingMessage stream per response, a
 * JSON.parse of each ~25 KB body, a socket closed after each) took several times the app's own
 * time to digest them, so the recorded arrivals were this process's backlog. Here each connection
 * is a plain socket speaking the little HTTP/1.1 the route needs:
 * - bytes are read with `onread` into one buffer shared by every connection: no Buffer and no
 *   stream event per read;
 * - a response is framed by its Content-Length (Fastify sends one for every JSON body); anything
 *   else (chunked, no length) fails the poller with an error rather than being guessed at;
 * - the arrival time is taken as soon as the response's last byte is read, before anything else;
 * - the body is checked for `done` once per distinct body: waiters of one question get the same
 *   bytes, so each body is compared byte for byte with one already parsed, and parsed itself only
 *   when it differs from every one seen;
 * - connections stay open (as a polling client's would, for its next call) until close().
 */
export interface PollOutcome {
  index: number;
  path: string;
  /** 0 for a network error. */
  status: number;
  done: boolean;
  /** When the last response ended, epoch ms with fractions (performance.timeOrigin + now()). */
  endedAt: number;
  /** Requests this poller sent (1 unless it had to ask again). */
  requests: number;
  error: string | null;
}

export const epochNow = () => performance.timeOrigin + performance.now();

/** A response as read: its status, when its last byte arrived, and whether its body says done: true. */
interface Answer {
  status: number;
  endedAt: number;
  done: boolean;
  error: string | null;
}

const HEAD_END = Buffer.from('\r\n\r\n');

/** Status and Content-Length of a response head, or an error for framing this client does not read. */
function parseHead(head: string): { status: number; length: number } | { error: string } {
  const lines = head.split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
  if (!status) return { error: `not an HTTP/1.x status line: ${JSON.stringify(lines[0])}` };
  let length = -1;
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    if (name === 'content-length') length = Number(line.slice(colon + 1).trim());
    if (name === 'transfer-encoding') return { error: `transfer-encoding ${line.slice(colon + 1).trim()} (this client reads Content-Length bodies only)` };
  }
  if (!Number.isInteger(length) || length < 0) return { error: 'response without a Content-Length' };
  return { status: Number(status[1]), length };
}

export function createPollers(baseUrl: string, authorization: string) {
  const url = new URL(baseUrl);
  const port = Number(url.port);
  const sockets = new Set<net.Socket>();
  let stopped = false;
  let sent = 0;
  let bytes = 0;
  /** Distinct 200 bodies seen, with their `done`, by length (bodies of one length are compared byte for byte). */
  const seen = new Map<number, Array<{ body: Buffer; done: boolean }>>();

  function isDone(body: Buffer): boolean {
    const sameLength = seen.get(body.length) ?? [];
    for (const known of sameLength) if (known.body.equals(body)) return known.done;
    let done = false;
    try {
      const parsed = JSON.parse(body.toString('utf8')) as { done?: unknown } | null;
      done = typeof parsed === 'object' && parsed !== null && parsed.done === true;
    } catch {
      done = false;
    }
    sameLength.push({ body: Buffer.from(body), done });
    seen.set(body.length, sameLength);
    return done;
  }

  /**
   * One read buffer for every connection: with `onread` a socket reads into it and hands the bytes
   * over synchronously (no Buffer, no stream event per read), so a response is checked before the
   * next read reuses it. A response split over reads is copied together.
   */
  const readBuffer = Buffer.allocUnsafe(256 * 1024);

  /** One connection, asked one request at a time; `ask` resolves with the response (or the connection's failure). */
  function connect() {
    let pending: ((response: Answer) => void) | null = null;
    let partial: Buffer | null = null;
    let head: { status: number; length: number; bodyStart: number } | null = null;
    let failure: string | null = null;
    let timer: NodeJS.Timeout | null = null;

    const settle = (response: Answer) => {
      if (timer) clearTimeout(timer);
      timer = null;
      const resolve = pending;
      pending = null;
      partial = null;
      head = null;
      resolve?.(response);
    };
    const fail = (message: string) => {
      failure ??= message;
      settle({ status: 0, endedAt: epochNow(), done: false, error: failure });
      socket.destroy();
    };
    const onRead = (nread: number, buffer: Buffer): boolean => {
      if (!pending) {
        fail('bytes arrived with no request pending');
        return false;
      }
      const chunk = buffer.subarray(0, nread);
      const bytesSoFar = partial ? (partial = Buffer.concat([partial, chunk])) : chunk;
      if (!head) {
        const end = bytesSoFar.indexOf(HEAD_END);
        if (end < 0) {
          partial ??= Buffer.from(chunk);
          return true;
        }
        const parsed = parseHead(bytesSoFar.toString('latin1', 0, end));
        if ('error' in parsed) {
          fail(parsed.error);
          return false;
        }
        head = { ...parsed, bodyStart: end + HEAD_END.length };
      }
      const total = head.bodyStart + head.length;
      if (bytesSoFar.length < total) {
        partial ??= Buffer.from(chunk);
        return true;
      }
      const endedAt = epochNow();
      if (bytesSoFar.length > total) {
        fail('more bytes than the response announced');
        return false;
      }
      bytes += head.length;
      const status = head.status;
      settle({ status, endedAt, done: status === 200 && isDone(bytesSoFar.subarray(head.bodyStart, total)), error: null });
      return true;
    };

    const socket = net.connect({ host: url.hostname, port, noDelay: true, onread: { buffer: readBuffer, callback: onRead } });
    sockets.add(socket);
    socket.on('error', (error) => fail(error.message));
    socket.on('close', () => {
      sockets.delete(socket);
      fail('connection closed');
    });

    return (path: string, timeoutMs: number): Promise<Answer> =>
      new Promise((resolve) => {
        if (failure) return resolve({ status: 0, endedAt: epochNow(), done: false, error: failure });
        pending = resolve;
        timer = setTimeout(() => fail(`no response within ${timeoutMs} ms`), timeoutMs);
        socket.write(`GET ${path} HTTP/1.1\r\nhost: ${url.host}\r\nauthorization: ${authorization}\r\n\r\n`);
      });
  }

  return {
    /** Starts one poller; resolves when it is done (or failed), or after its first response with `once`. */
    async poll(index: number, path: string, timeoutMs: number, options: { once?: boolean } = {}): Promise<PollOutcome> {
      const ask = connect();
      let requests = 0;
      for (;;) {
        requests += 1;
        sent += 1;
        const { status, endedAt, done, error } = await ask(path, timeoutMs);
        if (done || status !== 200 || error || stopped || options.once) return { index, path, status, done, endedAt, requests, error };
      }
    },
    /** Requests sent so far, re-polls included. */
    sent: () => sent,
    /** Response body bytes received so far, and how many distinct 200 bodies were parsed. */
    received: () => ({ bytes, distinctBodies: [...seen.values()].reduce((sum, list) => sum + list.length, 0) }),
    stop(): void {
      stopped = true;
    },
    close(): void {
      for (const socket of sockets) socket.destroy();
    },
  };
}
