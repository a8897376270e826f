import type { Mailer } from '../mail/mail.types.ts';
import { fillTemplate as fill, mailHtml } from '../mail/mail-html.ts';
import { stringsFor } from '../people/people-mail.ts';
import type { MemberRow } from '../teams/teams.repository.ts';
import type { EndpointRow } from './webhook-endpoints.repository.ts';

/**
 * Tells an account's owners that one of its webhook endpoints was turned off (docs/webhooks.md
 * "Turned off"): why, and where to turn it back on and redeliver what it missed. Each owner reads
 * it in their own language (modules/people/mail-strings.ts); the stored reason is English and is
 * quoted as it is.
 */
export function createWebhookOwnerMail(deps: { members(accountId: string): Promise<MemberRow[]>; mailer: Mailer; publicBaseUrl: string }) {
  return async (endpoint: EndpointRow): Promise<void> => {
    const owners = (await deps.members(endpoint.account_id)).filter((m) => m.role === 'owner');
    const link = `${deps.publicBaseUrl}/app/webhooks/${endpoint.id}`;
    for (const owner of owners) {
      const s = stringsFor(owner.language);
      const lines = [
        fill(s.webhookOffBody, { url: endpoint.url }),
        endpoint.disabled_reason ? fill(s.webhookOffReason, { reason: endpoint.disabled_reason }) : s.webhookOffNoReason,
        s.webhookOffNext,
      ];
      await deps.mailer.send({
        to: owner.email,
        subject: s.webhookOffSubject,
        text: `${lines.join('\n\n')}\n\n${link}\n`,
        html: mailHtml(lines, { lead: true, action: { href: link, label: s.webhookOffButton } }),
      });
    }
  };
}
