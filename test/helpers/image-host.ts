import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A stand-in for an image host on the internet, for imports (docs/uploads.md "Testing imports"):
 * an https server on a loopback address with a self-signed certificate for `*.example.com`
 * (made with the openssl command), answering by path. It counts the connections it accepts, so a
 * refusal can be shown to have never connected. The service trusts the certificate, and treats
 * the host's address as public, only through the test app's import seams.
 */
export interface ImageHost {
  port: number;
  address: string;
  connections: number;
  requests: string[];
  stop(): Promise<void>;
}

export type Route = (request: IncomingMessage, response: ServerResponse) => void;

/** One self-signed certificate per test run, for every name under example.com. */
let certificate: { key: string; cert: string } | null = null;

export function testCertificate(): { key: string; cert: string } {
  if (certificate) return certificate;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hc-image-host-'));
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=images.example.com',
      '-addext', 'subjectAltName=DNS:images.example.com,DNS:*.example.com', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
    ], { stdio: 'ignore' });
    certificate = { key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'), cert: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8') };
    return certificate;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function startImageHost(routes: Record<string, Route>, address = '127.0.0.2'): Promise<ImageHost> {
  const sockets = new Set<Socket>();
  const host: ImageHost = { port: 0, address, connections: 0, requests: [], stop: async () => undefined };
  const server = https.createServer(testCertificate(), (request, response) => {
    host.requests.push(request.url ?? '');
    const route = routes[(request.url ?? '').split('?')[0]];
    if (route) route(request, response);
    else response.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
  });
  server.on('connection', (socket: Socket) => {
    host.connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  host.port = (server.address() as AddressInfo).port;
  host.stop = () => new Promise((resolve) => {
    for (const socket of sockets) socket.destroy();
    server.close(() => resolve());
  });
  return host;
}

/** A route that answers with these bytes and this Content-Type. */
export const serve = (body: Buffer | string, type: string): Route => (_request, response) => {
  response.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(body) }).end(body);
};

/** A route that redirects (302) to `location`. */
export const redirect = (location: string | (() => string)): Route => (_request, response) => {
  response.writeHead(302, { location: typeof location === 'string' ? location : location() }).end();
};
