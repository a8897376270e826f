import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for an OpenAI-compatible chat-completions API on 127.0.0.1, for the insights engine
 * and translator tests (never the network). `reply` decides each answer from the request body;
 * every request body is kept in `requests`.
 */
export interface FakeChatApi {
  url: string;
  requests: Array<{ path: string; headers: http.IncomingHttpHeaders; body: any }>;
  reply: (body: any) => { status?: number; content?: string; raw?: string };
  close(): Promise<void>;
}

export async function startFakeChatApi(reply: FakeChatApi['reply'] = () => ({ status: 500 })): Promise<FakeChatApi> {
  const api: FakeChatApi = { url: '', requests: [], reply, close: async () => {} };
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (chunk) => (data += chunk));
    req.on('end', () => {
      const body = data ? JSON.parse(data) : null;
      api.requests.push({ path: req.url ?? '', headers: req.headers, body });
      const out = api.reply(body);
      res.writeHead(out.status ?? 200, { 'content-type': 'application/json' });
      res.end(out.raw ?? JSON.stringify({ choices: [{ message: { role: 'assistant', content: out.content ?? '' } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  api.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return api;
}

/** The user message of a chat request, parsed (the engine and the translator send JSON). */
export function userPayload(body: any): any {
  return JSON.parse(body.messages.find((m: { role: string }) => m.role === 'user').content);
}
