import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { type Lookup, OutboundError, type OutboundErrorCode, outboundRequest } from './outbound-http.ts';

/**
 * RELIABILITY R5.1/R5.2 on real sockets, all on loopback (no internet): servers on 127.0.0.1 and
 * 127.0.0.2 stand in for "the address that was checked" and "somewhere else"; an injected lookup
 * plays DNS. Every server counts the connections it accepts, so "refused" means "never connected".
 */

interface TestServer {
  port: number;
  connections: number;
  requests: http.IncomingMessage[];
}

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()));
});

async function listen(server: net.Server, host = '127.0.0.1', port = 0): Promise<number> {
  const sockets = new Set<net.Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  open.push(() => new Promise((resolve) => {
    for (const socket of sockets) socket.destroy();
    server.close(() => resolve());
  }));
  return (server.address() as net.AddressInfo).port;
}

async function httpServer(handler: http.RequestListener = (_req, res) => res.end('hello'), host = '127.0.0.1', port = 0): Promise<TestServer> {
  const state: TestServer = { port: 0, connections: 0, requests: [] };
  const server = http.createServer((req, res) => {
    state.requests.push(req);
    handler(req, res);
  });
  server.on('connection', () => state.connections++);
  state.port = await listen(server, host, port);
  return state;
}

/** A resolver that answers `answers[i]` to the i-th question (the last one again after that). */
function fakeDns(...answers: string[][]): Lookup & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    const answer = answers[Math.min(calls.length, answers.length - 1)];
    calls.push(hostname);
    return answer.map((address) => ({ address, family: net.isIP(address) }));
  };
  return Object.assign(lookup, { calls });
}

const noDns: Lookup = async () => {
  throw new Error('the lookup must not be asked');
};

async function refusal(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

async function expectCode(promise: Promise<unknown>, code: OutboundErrorCode): Promise<OutboundError> {
  const error = await refusal(promise);
  expect(error.code).toBe(code);
  return error;
}

describe('outboundRequest: the address rule (R5.1)', () => {
  it('refuses a server on 127.0.0.1 without allowPrivate, before connecting', async () => {
    const server = await httpServer();
    await expectCode(outboundRequest(`http://127.0.0.1:${server.port}/`, { allowHttp: true }), 'not_public_address');
    expect(server.connections).toBe(0);
  });

  it('reaches it with allowPrivate and reports what happened', async () => {
    const server = await httpServer((_req, res) => res.writeHead(201, { 'x-test': 'yes' }).end('hello'));
    const response = await outboundRequest(`http://127.0.0.1:${server.port}/path?q=1`, { allowHttp: true, allowPrivate: true, method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect(response).toMatchObject({ status: 201, truncated: false, remoteAddress: '127.0.0.1', url: `http://127.0.0.1:${server.port}/path?q=1` });
    expect(response.headers['x-test']).toBe('yes');
    expect(response.body.toString()).toBe('hello');
    expect(response.durationMs).toBeGreaterThanOrEqual(0);
    expect(server.requests[0]).toMatchObject({ method: 'POST', url: '/path?q=1' });
  });

  it.each([['127.0.0.1'], ['10.0.0.1'], ['169.254.169.254'], ['::ffff:127.0.0.1'], ['::1'], ['fe80::1'], ['0.0.0.0']])(
    'refuses a name that resolves to %s, without connecting',
    async (address) => {
      const server = await httpServer();
      const lookup = fakeDns([address]);
      const error = await expectCode(outboundRequest(`https://hooks.example.com:${server.port}/`, { lookup }), 'not_public_address');
      expect(lookup.calls).toEqual(['hooks.example.com']);
      expect(server.connections).toBe(0);
      // Safe message: the host the user gave, not the internal address it resolved to.
      expect(error.message).toContain('hooks.example.com');
      expect(error.message).not.toContain(address);
      expect(error.address).toBe(address);
    },
  );

  it('refuses a name if ANY of its addresses is not public', async () => {
    await expectCode(outboundRequest('https://mixed.example.com/', { lookup: fakeDns(['93.184.215.14', '10.0.0.1']) }), 'not_public_address');
    await expectCode(outboundRequest('https://mixed.example.com/', { lookup: fakeDns(['2606:4700::1', 'fd00::1']) }), 'not_public_address');
  });

  it.each([
    ['http://127.0.0.1/'],
    ['http://[::1]/'],
    ['http://[::ffff:127.0.0.1]/'],
    ['http://[::ffff:a9fe:a9fe]/latest/meta-data/'],
    ['http://2130706433/'], // 127.0.0.1 as a decimal; the URL parser makes it an IPv4 literal
    ['http://0x7f.1/'],
    ['http://169.254.169.254/latest/meta-data/'],
    ['http://0.0.0.0/'],
  ])('checks the IP literal %s before connecting, without a lookup', async (url) => {
    await expectCode(outboundRequest(url, { allowHttp: true, lookup: noDns }), 'not_public_address');
  });

  it('uses the system resolver by default: localhost is refused', async () => {
    await expectCode(outboundRequest('https://localhost/'), 'not_public_address');
  });

  it('pins the connection to the checked address: the name is resolved once, never again (DNS rebinding)', async () => {
    // Same port on two loopback addresses. The first answer is checked and used; a second
    // lookup would say 127.0.0.2, but the socket never asks again.
    const checked = await httpServer((_req, res) => res.end('checked'));
    const elsewhere = await httpServer((_req, res) => res.end('elsewhere'), '127.0.0.2', checked.port);
    const lookup = fakeDns(['127.0.0.1'], ['127.0.0.2']);
    const response = await outboundRequest(`http://rebind.example.com:${checked.port}/`, { allowHttp: true, allowPrivate: true, lookup });
    expect(response.body.toString()).toBe('checked');
    expect(response.remoteAddress).toBe('127.0.0.1');
    expect(lookup.calls).toHaveLength(1);
    expect(elsewhere.connections).toBe(0);
    // Host stays the original name (the TLS test below shows the same for SNI).
    expect(checked.requests[0].headers.host).toBe(`rebind.example.com:${checked.port}`);
    // And the other address was reachable all along: the next request, on a new answer, goes there.
    const next = await outboundRequest(`http://rebind.example.com:${checked.port}/`, { allowHttp: true, allowPrivate: true, lookup });
    expect(next).toMatchObject({ remoteAddress: '127.0.0.2' });
    expect(next.body.toString()).toBe('elsewhere');
  });

  it('checks the peer the socket actually reached again, after connecting, and drops it if refused', async () => {
    // The rule answers yes for the resolved address and no for the connected peer, as it would if
    // anything between check and connect had moved the socket: no request is sent on it.
    const server = await httpServer();
    let asked = 0;
    const yesThenNo = () => asked++ === 0;
    await expectCode(outboundRequest(`http://hooks.example.com:${server.port}/`, { allowHttp: true, lookup: fakeDns(['127.0.0.1']), isAllowedAddress: yesThenNo }), 'not_public_address');
    expect(asked).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.connections).toBe(1);
    expect(server.requests).toHaveLength(0);
  });

  it('keeps TLS: SNI is the original name on the pinned connection, and the certificate is verified', async (context) => {
    const pem = selfSignedCertificate('hooks.example.com');
    if (!pem) return context.skip();
    const names: string[] = [];
    let connections = 0;
    const server = tls.createServer({
      ...pem,
      SNICallback: (name, done) => {
        names.push(name);
        done(null, tls.createSecureContext(pem));
      },
    }, (socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n'));
    server.on('connection', () => connections++);
    server.on('tlsClientError', () => undefined);
    const port = await listen(server);
    // Not trusted (self-signed): refused, which shows verification is on; the server saw the name.
    await expectCode(outboundRequest(`https://hooks.example.com:${port}/`, { allowPrivate: true, lookup: fakeDns(['127.0.0.1']) }), 'tls_failed');
    expect(names).toEqual(['hooks.example.com']);
    expect(connections).toBe(1);
  });
});

describe('outboundRequest: URLs (R5.1)', () => {
  it('refuses http without allowHttp, before any lookup', async () => {
    await expectCode(outboundRequest('http://hooks.example.com/', { lookup: noDns }), 'https_required');
  });

  it.each([['not a url'], ['ftp://hooks.example.com/'], ['file:///etc/passwd'], ['https://user:secret@hooks.example.com/']])('refuses %s as bad_url', async (url) => {
    const error = await expectCode(outboundRequest(url, { lookup: noDns }), 'bad_url');
    expect(error.message).not.toContain('secret');
  });

  it('never puts the path or query (which may hold a token) in a message', async () => {
    const error = await refusal(outboundRequest('https://hooks.example.com/hook?token=sk_SECRET', { lookup: fakeDns(['10.0.0.1']) }));
    expect(error.message).not.toContain('SECRET');
  });

  it('reports a name that does not resolve', async () => {
    const failing: Lookup = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    await expectCode(outboundRequest('https://nowhere.example.com/', { lookup: failing }), 'dns_failed');
    await expectCode(outboundRequest('https://nowhere.example.com/', { lookup: fakeDns([]) }), 'dns_failed');
  });

  it('allows at most 3 redirects (R5.2)', async () => {
    await expect(outboundRequest('https://hooks.example.com/', { redirects: 4 })).rejects.toThrow(RangeError);
  });
});

describe('outboundRequest: redirects (R5.2)', () => {
  const local = { allowHttp: true, allowPrivate: true };

  it('returns a 3xx as it is by default (webhooks), following nothing', async () => {
    const server = await httpServer((req, res) => (req.url === '/' ? res.writeHead(302, { location: '/next' }).end() : res.end('next')));
    const response = await outboundRequest(`http://127.0.0.1:${server.port}/`, local);
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('/next');
    expect(server.requests.map((r) => r.url)).toEqual(['/']);
  });

  it('follows up to the number asked, by hand', async () => {
    const server = await httpServer((req, res) => {
      if (req.url === '/a') return res.writeHead(301, { location: '/b' }).end();
      if (req.url === '/b') return res.writeHead(307, { location: `http://127.0.0.1:${server.port}/c` }).end();
      res.end(`${req.method} ${req.url}`);
    });
    const response = await outboundRequest(`http://127.0.0.1:${server.port}/a`, { ...local, redirects: 3 });
    expect(response).toMatchObject({ status: 200, url: `http://127.0.0.1:${server.port}/c` });
    expect(response.body.toString()).toBe('GET /c');
  });

  it('stops with too_many_redirects past the limit', async () => {
    const server = await httpServer((_req, res) => res.writeHead(302, { location: '/again' }).end());
    await expectCode(outboundRequest(`http://127.0.0.1:${server.port}/`, { ...local, redirects: 2 }), 'too_many_redirects');
    expect(server.requests).toHaveLength(3);
  });

  it('re-checks every target: a redirect from an allowed server to another address is refused', async () => {
    // Only 127.0.0.1 counts as "public" here, so the first hop is allowed and the rest are not.
    const onlyFirst = { allowHttp: true, redirects: 3, isAllowedAddress: (ip: string) => ip === '127.0.0.1' };
    const other = await httpServer((_req, res) => res.end('internal'), '127.0.0.2');
    const server = await httpServer((req, res) => {
      const to = req.url === '/literal' ? `http://127.0.0.2:${other.port}/` : req.url === '/name' ? `http://internal.example.com:${other.port}/` : 'http://169.254.169.254/latest/meta-data/';
      res.writeHead(302, { location: to }).end();
    });
    const lookup = fakeDns(['127.0.0.2']);
    for (const path of ['/literal', '/name', '/metadata']) {
      await expectCode(outboundRequest(`http://127.0.0.1:${server.port}${path}`, { ...onlyFirst, lookup }), 'not_public_address');
    }
    expect(server.requests).toHaveLength(3);
    expect(lookup.calls).toEqual(['internal.example.com']);
    expect(other.connections).toBe(0);
  });

  it('re-checks the URL of every target: a redirect to a scheme other than http(s) is refused', async () => {
    // Every target goes through the same URL rule as the first (so https → http needs allowHttp too).
    const server = await httpServer((_req, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end());
    await expectCode(outboundRequest(`http://127.0.0.1:${server.port}/`, { ...local, redirects: 1 }), 'bad_url');
  });

  it('turns a POST into a GET without a body on 303, and drops credentials on another origin', async () => {
    const other = await httpServer((req, res) => res.end(`${req.method} ${req.headers.authorization ?? 'no auth'} ${req.headers['content-type'] ?? 'no type'}`), '127.0.0.2');
    const server = await httpServer((_req, res) => res.writeHead(303, { location: `http://127.0.0.2:${other.port}/done` }).end());
    const response = await outboundRequest(`http://127.0.0.1:${server.port}/`, {
      ...local, redirects: 1, method: 'POST', body: 'x=1', headers: { authorization: 'Bearer s3cret', 'content-type': 'text/plain' },
    });
    expect(response.body.toString()).toBe('GET no auth no type');
  });
});

describe('outboundRequest: timeouts and sizes (R5.2)', () => {
  const local = { allowHttp: true, allowPrivate: true };

  it('times out a server that never answers, within the bound', async () => {
    const server = await httpServer(() => undefined);
    const started = Date.now();
    await expectCode(outboundRequest(`http://127.0.0.1:${server.port}/`, { ...local, timeoutMs: 300 }), 'timeout');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('bounds the connect (TCP and TLS handshake) by connectTimeoutMs', async () => {
    const server = net.createServer(() => undefined); // accepts, never answers the TLS hello
    const port = await listen(server);
    const started = Date.now();
    await expectCode(outboundRequest(`https://silent.example.com:${port}/`, { allowPrivate: true, lookup: fakeDns(['127.0.0.1']), connectTimeoutMs: 200, timeoutMs: 5_000 }), 'timeout');
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('counts reading the body in the total: a trickling body times out too', async () => {
    const server = await httpServer((_req, res) => {
      res.writeHead(200);
      const drip = setInterval(() => res.write('.'), 50);
      res.on('close', () => clearInterval(drip));
    });
    const started = Date.now();
    await expectCode(outboundRequest(`http://127.0.0.1:${server.port}/`, { ...local, timeoutMs: 400, maxBodyBytes: 1_000_000 }), 'timeout');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('times out a lookup that never answers', async () => {
    const hanging: Lookup = () => new Promise(() => undefined);
    await expectCode(outboundRequest('https://slow-dns.example.com/', { timeoutMs: 200, lookup: hanging }), 'timeout');
  });

  it('cuts a huge body at maxBodyBytes whatever Content-Length says', async () => {
    const big = Buffer.alloc(4 * 1024 * 1024, 'a');
    const server = await httpServer((_req, res) => res.writeHead(200, { 'content-length': String(big.length) }).end(big));
    const response = await outboundRequest(`http://127.0.0.1:${server.port}/`, { ...local, maxBodyBytes: 1000 });
    expect(response).toMatchObject({ status: 200, truncated: true });
    expect(response.body.length).toBe(1000);
  });

  it('cuts an endless chunked body at the default 64 KiB', async () => {
    const server = await httpServer((_req, res) => {
      res.writeHead(200);
      const pump = () => {
        while (res.write(Buffer.alloc(16 * 1024, 'b')));
      };
      res.on('drain', pump);
      pump();
    });
    const response = await outboundRequest(`http://127.0.0.1:${server.port}/`, local);
    expect(response.truncated).toBe(true);
    expect(response.body.length).toBe(64 * 1024);
  });

  it('keeps a body of exactly the limit whole', async () => {
    const server = await httpServer((_req, res) => res.end(Buffer.alloc(1000, 'c')));
    const response = await outboundRequest(`http://127.0.0.1:${server.port}/`, { ...local, maxBodyBytes: 1000 });
    expect(response).toMatchObject({ truncated: false });
    expect(response.body.length).toBe(1000);
  });
});

describe('outboundRequest: broken connections', () => {
  const local = { allowHttp: true, allowPrivate: true };

  it('reports a reset as connection_reset', async () => {
    const server = net.createServer((socket) => socket.once('data', () => socket.resetAndDestroy()));
    const port = await listen(server);
    await expectCode(outboundRequest(`http://127.0.0.1:${port}/`, local), 'connection_reset');
  });

  it('reports a response cut off mid-body as connection_reset', async () => {
    const server = net.createServer((socket) => socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nshort')));
    const port = await listen(server);
    await expectCode(outboundRequest(`http://127.0.0.1:${port}/`, local), 'connection_reset');
  });

  it('reports a port nobody listens on as connect_failed', async () => {
    const server = net.createServer();
    const port = await listen(server);
    await open.pop()!();
    await expectCode(outboundRequest(`http://127.0.0.1:${port}/`, local), 'connect_failed');
  });
});

/** A self-signed certificate for `name` made with the openssl command, or null without it. */
function selfSignedCertificate(name: string): { key: string; cert: string } | null {
  const dir = mkdtempSync(path.join(tmpdir(), 'outbound-tls-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', `/CN=${name}`, '-addext', `subjectAltName=DNS:${name}`, '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
    return { key: readFileSync(path.join(dir, 'key.pem'), 'utf8'), cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8') };
  } catch {
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
