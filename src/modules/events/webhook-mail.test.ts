import { describe, expect, it } from 'vitest';
import type { MailMessage, Mailer } from '../mail/mail.types.ts';
import type { MemberRow } from '../teams/teams.repository.ts';
import type { EndpointRow } from './webhook-endpoints.repository.ts';
import { createWebhookOwnerMail } from './webhook-mail.ts';

const at = new Date('2026-11-24T12:00:00.000Z');
const reason = 'Every delivery failed for 72 hours (last: HTTP 500).';
const endpoint: EndpointRow = {
  id: 'whe_1', account_id: 'acc_1', url: 'https://hooks.example.com/in', events: ['question.completed'], description: null, enabled: false,
  disabled_reason: reason, secret_box: 'box', previous_secret_box: null, previous_secret_until: null, created_by: null, created_at: at, updated_at: at,
  last_delivery_at: at, last_status: 500, last_success_at: null, failing_since: at,
};
const member = (email: string, role: MemberRow['role'], language: string): MemberRow => ({ person_id: `per_${email}`, email, name: null, role, created_at: at, language });

async function mailsFor(members: MemberRow[], row: EndpointRow = endpoint): Promise<MailMessage[]> {
  const sent: MailMessage[] = [];
  const mailer: Mailer = { send: async (m) => void sent.push(m), mailbox: () => null };
  await createWebhookOwnerMail({ members: async () => members, mailer, publicBaseUrl: 'https://headcount.example' })(row);
  return sent;
}

describe('the mail to owners when a webhook endpoint is turned off', () => {
  it('speaks each owner’s language, quotes the stored reason as it is, and links the endpoint; members get nothing', async () => {
    const sent = await mailsFor([member('de@example.com', 'owner', 'de'), member('en@example.com', 'owner', 'en'), member('m@example.com', 'member', 'de')]);
    expect(sent.map((m) => m.to)).toEqual(['de@example.com', 'en@example.com']);
    const [de, en] = sent;
    expect(de.subject).toBe('Dein Headcount-Webhook-Endpunkt wurde abgeschaltet');
    expect(de.text).toContain('Wir haben deinen Webhook-Endpunkt https://hooks.example.com/in abgeschaltet.');
    expect(de.text).toContain(`Grund: „${reason}“`);
    expect(de.text).toContain('https://headcount.example/app/webhooks/whe_1');
    expect(de.html).toContain('Endpunkt öffnen');
    expect(de.html).toContain('href="https://headcount.example/app/webhooks/whe_1"');
    expect(en.subject).toMatch(/webhook endpoint was turned off/);
    expect(en.text).toContain(`Reason: “${reason}”`);
    expect(en.html).toContain('Open the endpoint');
  });

  it('falls back to English for a language the mail does not speak, and says it kept failing when no reason was stored', async () => {
    const [mail] = await mailsFor([member('x@example.com', 'owner', 'xx')], { ...endpoint, disabled_reason: null });
    expect(mail.subject).toBe('Your Headcount webhook endpoint was turned off');
    expect(mail.text).toContain('It kept failing.');
  });
});
