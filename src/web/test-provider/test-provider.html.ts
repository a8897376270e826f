import { formatMoney } from '../../lib/currencies.ts';
import type { Checkout } from '../../modules/billing/billing.schemas.ts';
import type { TestAction } from '../../modules/billing/test-provider.ts';
import type { AssetBundle } from '../shared/assets.ts';
import { escapeHtml, head } from '../shared/html.ts';

/**
 * The built-in test provider's page (`/pay/test/{checkoutId}`; docs/payments.md "The test
 * provider"): what Stripe's checkout page is in production, on this machine, with no money. It
 * says so at the top in every state. Each button is a form carrying a fresh event id, so sending
 * the same form again is a replayed provider event (applied once).
 */
const LABELS: Record<TestAction, string> = {
  pay: 'Pay',
  decline: 'Decline the card',
  funds_received: 'The transfer arrived',
  transfer_failed: 'The transfer failed',
  refund: 'Refund the payment',
  dispute: 'Dispute the payment',
  dispute_won: 'Win the dispute',
};

const STATUS: Record<Checkout['status'], string> = {
  open: 'Waiting for payment',
  pending: 'Waiting for the bank transfer',
  paid: 'Paid',
  failed: 'Failed',
  expired: 'Expired',
};

function actionsFor(checkout: Checkout): TestAction[] {
  if (checkout.status === 'paid') return ['refund', 'dispute', 'dispute_won'];
  if (checkout.status === 'failed' || checkout.status === 'expired') return [];
  return checkout.method === 'card' ? ['pay', 'decline'] : ['funds_received', 'transfer_failed'];
}

const row = (label: string, value: string) => `<div class="kv"><dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd></div>`;

export function testProviderPage(input: { assets: AssetBundle; checkout: Checkout; eventId: (action: TestAction) => string; notice?: string }): string {
  const { checkout, assets } = input;
  const amount = formatMoney(checkout.amount, checkout.currency);
  const transfer = checkout.bankTransfer;
  const details = transfer
    ? `<dl class="kv-list">${[
        row('Payee', transfer.payee),
        ...(transfer.sortCode ? [row('Sort code', transfer.sortCode)] : []),
        ...(transfer.accountNumber ? [row('Account number', transfer.accountNumber)] : []),
        ...(transfer.iban ? [row('IBAN', transfer.iban)] : []),
        ...(transfer.bic ? [row('BIC', transfer.bic)] : []),
        ...(transfer.routingNumber ? [row('Routing number', transfer.routingNumber)] : []),
        row('Reference', transfer.reference),
        row('Amount', amount),
      ].join('')}</dl>`
    : `<p>Card: 4242 4242 4242 4242 (nothing is charged).</p>`;
  const buttons = actionsFor(checkout)
    .map(
      (action) => `<form method="post" class="inline-form">
<input type="hidden" name="action" value="${action}">
<input type="hidden" name="event" value="${escapeHtml(input.eventId(action))}">
<button type="submit" class="button${action === 'pay' || action === 'funds_received' ? '' : ' secondary'}">${escapeHtml(action === 'pay' ? `${LABELS.pay} ${amount}` : LABELS[action])}</button>
</form>`,
    )
    .join('\n');
  return `${head(assets, 'en', `Test payment · ${amount}`, `<link rel="stylesheet" href="/a/assets/${assets.version}/portal.css">\n`)}
<body>
<main class="page portal">
<p class="notice test-banner" role="note">Test payment provider: no money moves. In production this page is Stripe's.</p>
<h1>${escapeHtml(`${checkout.credits.toLocaleString('en-GB')} Headcount credits`)}</h1>
<p class="lead">${escapeHtml(`${checkout.pack} pack · ${amount} · ${checkout.method === 'card' ? 'card' : 'bank transfer'}`)}</p>
<p class="status-line"><span class="status-pill">${escapeHtml(STATUS[checkout.status])}</span></p>
${input.notice ? `<p class="notice" role="status">${escapeHtml(input.notice)}</p>\n` : ''}<section class="card">
${details}
${buttons}
</section>
<p><a href="${escapeHtml(checkout.returnUrl)}">Back to Headcount</a></p>
</main>
</body>
</html>
`;
}
