import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * A caller may send its own x-request-id (to follow one call through its logs and ours); anything
 * that is not a short, plain token is replaced so it cannot forge log lines.
 */
export function genRequestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  if (typeof given === 'string' && /^[\w.:-]{1,64}$/.test(given)) return given;
  return randomUUID();
}
