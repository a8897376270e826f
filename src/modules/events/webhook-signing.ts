import { Webhook } from 'standardwebhooks';
import { randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (RELIABILITY R2.1) through the `standardwebhooks` library, so any
 * receiver verifies with any Standard Webhooks library: `webhook-id` (the event id, the same on
 * every retry), `webhook-timestamp` (seconds, this attempt's) and `webhook-signature`
 * (`v1,<base64 HMAC-SHA256 of id.timestamp.body>`, one per secret in force, space-separated, so
 * during a rotation receivers holding either secret verify).
 */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** What lists show of a secret: enough to tell two apart, not enough to sign. */
export function maskedSecret(secret: string): string {
  return `whsec_…${secret.slice(-4)}`;
}

export function signedHeaders(input: { eventId: string; at: Date; body: string; secrets: readonly string[] }): Record<string, string> {
  const timestamp = new Date(Math.floor(input.at.getTime() / 1000) * 1000);
  return {
    'webhook-id': input.eventId,
    'webhook-timestamp': String(timestamp.getTime() / 1000),
    'webhook-signature': input.secrets.map((secret) => new Webhook(secret).sign(input.eventId, timestamp, input.body)).join(' '),
  };
}
