import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * A webhook receiver as a customer would write one: a plain HTTP server that verifies every
 * delivery with the `standardwebhooks` library (not our code) against the secrets it was given,
 * and keeps what arrived. `behave` decides each answer, to inject faults: a status, a reset
 * connection, or a hang (never answering).
 */
export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** The body parsed, when a secret verified it; null when none did. */
  verified: { id: string; type: string; createdAt: string; data: Record<string, any> } | null;
  userAgent: string | undefined;
}

export type Behaviour = number | { status: number; headers?: Record<string, string>; body?: string } | 'reset' | 'hang';

export interface WebhookReceiver {
  url: string;
  port: number;
  received: Received[];
  /** Secrets a delivery may be signed with (the one from the API, then a rotated one). */
  secrets: string[];
  behave: (delivery: Received, index: number) => Behaviour;
  /** Ids of deliveries that verified, in arrival order. */
  ids(): string[];
  stop(): Promise<void>;
  /** Listens again on the same port (after stop: a receiver that was down for a while). */
  restart(): Promise<void>;
}

export async function startReceiver(path = '/hooks/headcount', port = 0): Promise<WebhookReceiver> {
  const sockets = new Set<Socket>();
  let server: Server;
  const receiver: WebhookReceiver = {
    url: '',
    port: 0,
    received: [],
    secrets: [],
    behave: () => 204,
    ids: () => receiver.received.filter((r) => r.verified).map((r) => r.id),
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async restart() {
      await listen(receiver.port);
    },
  };

  function verify(body: string, headers: IncomingMessage['headers']): Received['verified'] {
    for (const secret of receiver.secrets) {
      try {
        return new Webhook(secret).verify(body, headers as Record<string, string>) as Received['verified'];
      } catch {
        // try the next secret
      }
    }
    return null;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const delivery: Received = {
      id: String(request.headers['webhook-id']),
      timestamp: String(request.headers['webhook-timestamp']),
      signature: String(request.headers['webhook-signature']),
      body,
      verified: request.url === path && request.method === 'POST' ? verify(body, request.headers) : null,
      userAgent: request.headers['user-agent'],
    };
    receiver.received.push(delivery);
    const behaviour = receiver.behave(delivery, receiver.received.length - 1);
    if (behaviour === 'hang') return;
    if (behaviour === 'reset') {
      request.socket.resetAndDestroy();
      return;
    }
    const { status, headers = {}, body: answer = '' } = typeof behaviour === 'number' ? { status: behaviour } : behaviour;
    response.writeHead(status, headers).end(answer);
  }

  function listen(on: number): Promise<void> {
    server = createServer((request, response) => void handle(request, response));
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    return new Promise((resolve) => {
      server.listen(on, '127.0.0.1', () => {
        receiver.port = (server.address() as AddressInfo).port;
        receiver.url = `http://127.0.0.1:${receiver.port}${path}`;
        resolve();
      });
    });
  }

  await listen(port);
  return receiver;
}
