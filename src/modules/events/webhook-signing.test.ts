import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { maskedSecret, newWebhookSecret, signedHeaders } from './webhook-signing.ts';

describe('webhook signing', () => {
  const body = JSON.stringify({ id: 'evt_1', type: 'question.completed', createdAt: '2026-11-24T12:00:00.000Z', data: { ok: true } });

  it('signs so that the standardwebhooks verifier accepts it, and refuses one flipped byte', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const headers = signedHeaders({ eventId: 'evt_1', at: new Date(), body, secrets: [secret] });
    expect(headers['webhook-id']).toBe('evt_1');
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    const flipped = body.replace('true', 'trve');
    expect(() => new Webhook(secret).verify(flipped, headers)).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
  });

  it('during a rotation, a receiver with either secret verifies', () => {
    const [now, before] = [newWebhookSecret(), newWebhookSecret()];
    const headers = signedHeaders({ eventId: 'evt_2', at: new Date(), body, secrets: [now, before] });
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(now).verify(body, headers)).toBeTruthy();
    expect(new Webhook(before).verify(body, headers)).toBeTruthy();
  });

  it('an old timestamp is refused by the verifier (replays)', () => {
    const secret = newWebhookSecret();
    const headers = signedHeaders({ eventId: 'evt_3', at: new Date(Date.now() - 10 * 60_000), body, secrets: [secret] });
    expect(() => new Webhook(secret).verify(body, headers)).toThrow(/timestamp/i);
  });

  it('masks a secret to its last four characters', () => {
    expect(maskedSecret('whsec_abcdefgh1234')).toBe('whsec_…1234');
  });
});
