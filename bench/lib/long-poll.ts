import http from 'node:http';

/**
 * Long-poll clients for the wait scenario: many GETs held open at once through one http.Agent
 * (one socket each), behaving like a client of GET /v2/questions/{id}/wait: when an answer says
 * `done: false` (the wait's `seconds` ran out) it asks again. Each poller ends with its first
 * `done: true`, an HTTP error or a network error; `stop()` makes pending re-polls give up.
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

export function createPollers(baseUrl: string, authorization: string, maxSockets: number) {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: false, maxSockets, maxTotalSockets: maxSockets });
  let stopped = false;
  let sent = 0;

  function once(path: string, timeoutMs: number): Promise<{ status: number; body: unknown; error: string | null }> {
    return new Promise((resolve) => {
      const request = http.request({ agent, host: url.hostname, port: url.port, path, method: 'GET', headers: { authorization } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          let body: unknown = null;
          try {
            body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            body = null;
          }
          resolve({ status: response.statusCode ?? 0, body, error: null });
        });
        response.on('error', (error) => resolve({ status: 0, body: null, error: error.message }));
      });
      request.setTimeout(timeoutMs, () => request.destroy(new Error(`no response within ${timeoutMs} ms`)));
      request.on('error', (error) => resolve({ status: 0, body: null, error: error.message }));
      request.end();
    });
  }

  return {
    /** Starts one poller; resolves when it is done (or failed). */
    async poll(index: number, path: string, timeoutMs: number): Promise<PollOutcome> {
      let requests = 0;
      for (;;) {
        requests += 1;
        sent += 1;
        const { status, body, error } = await once(path, timeoutMs);
        const done = status === 200 && typeof body === 'object' && body !== null && (body as { done?: unknown }).done === true;
        if (done || status !== 200 || error || stopped) return { index, path, status, done, endedAt: epochNow(), requests, error };
      }
    },
    /** Requests sent so far, re-polls included. */
    sent: () => sent,
    stop(): void {
      stopped = true;
    },
    close(): void {
      agent.destroy();
    },
  };
}
