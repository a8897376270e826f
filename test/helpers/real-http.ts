import http from 'node:http';
import net from 'node:net';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Outside-in helpers (RELIABILITY R7.5): the app listening on a real socket, requests from a chosen
 * loopback address (every 127.x.y.z reaches the server, and the server sees that address as the
 * peer), raw bytes over TCP for what no HTTP client sends, and a stand-in for Cloudflare's
 * siteverify that records the `remoteip` it is told.
 */
export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

export interface CallOptions {
  method?: string;
  headers?: Record<string, string>;
  /** JSON-encoded and sent with Content-Type: application/json. */
  json?: unknown;
  /** A body sent as it is (set its Content-Type in headers). */
  body?: string;
  /** The client's own address, e.g. 127.0.0.7 (default 127.0.0.1). */
  from?: string;
}

/** One request over a fresh connection (no keep-alive, so `from` always holds). */
export function call(base: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const body = options.json === undefined ? options.body : JSON.stringify(options.json);
  const headers: Record<string, string> = { connection: 'close', ...options.headers };
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}${path}`, { method: options.method ?? 'GET', headers, localAddress: options.from, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

export interface RawReply {
  /** Everything the server wrote before closing (or before the timeout). */
  raw: string;
  status: number | null;
  headers: Record<string, string>;
  body: string;
  closed: boolean;
  /** Milliseconds from connecting to the server's close (or the timeout). */
  ms: number;
}

/**
 * Writes `chunks` to a raw TCP connection (a number in the list waits that many milliseconds) and
 * collects what comes back until the server closes the socket or `timeoutMs` passes. Parses one
 * HTTP/1.1 response: status, headers (lower-cased), body.
 */
export function rawExchange(base: string, chunks: Array<string | Buffer | number>, options: { timeoutMs?: number; from?: string } = {}): Promise<RawReply> {
  const { port } = new URL(base);
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = net.connect({ port: Number(port), host: '127.0.0.1', localAddress: options.from });
    const received: Buffer[] = [];
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parseResponse(Buffer.concat(received).toString('latin1')), closed, ms: Date.now() - started });
    };
    const timer = setTimeout(() => finish(false), options.timeoutMs ?? 10_000);
    socket.on('data', (chunk) => received.push(chunk));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        if (done || socket.destroyed) return;
        if (typeof chunk === 'number') await new Promise((resolve) => setTimeout(resolve, chunk));
        else socket.write(chunk);
      }
    });
  });
}

function parseResponse(raw: string): Omit<RawReply, 'closed' | 'ms'> {
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) return { raw, status: null, headers: {}, body: '' };
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? NaN);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { raw, status: Number.isNaN(status) ? null : status, headers, body: raw.slice(end + 4) };
}

// ---------------------------------------------------------------------------------------------

export interface FakeSiteverify {
  url: string;
  /** Every call, as the form fields it received (secret, response, remoteip). */
  calls: Array<Record<string, string>>;
  /** A token it accepts once. */
  token(): string;
  close(): Promise<void>;
}

/** A stand-in for https://challenges.cloudflare.com/turnstile/v0/siteverify that accepts its own tokens once. */
export async function startFakeSiteverify(secret: string): Promise<FakeSiteverify> {
  const issued = new Set<string>();
  const calls: Array<Record<string, string>> = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const fields = Object.fromEntries(new URLSearchParams(body));
      calls.push(fields);
      const success = fields.secret === secret && issued.delete(fields.response);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ success, 'error-codes': success ? [] : ['invalid-input-response'] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/turnstile/v0/siteverify`,
    calls,
    token() {
      const token = `good.${randomUUID()}`;
      issued.add(token);
      return token;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
