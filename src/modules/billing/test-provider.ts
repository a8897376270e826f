import type { Currency } from '../../lib/currencies.ts';
import type { BankTransfer } from './billing.schemas.ts';
import type { PaymentEvent, PaymentProvider } from './payment-provider.ts';

/**
 * The built-in test provider (docs/payments.md "The test provider"): development and tests only
 * (config refuses it in production). Its "checkout page" is ours, `/pay/test/{checkoutId}`, where
 * a person presses Pay or Decline (or, for a bank transfer, says the money came or did not), and
 * afterwards Refund or Dispute. What the page does becomes a PaymentEvent applied by the same
 * service as Stripe's, so the whole flow runs on one machine without the internet and no money
 * moves. The payee details are obviously not a real bank account.
 */
export const TEST_PAYEE = 'Headcount Test Payments (no real money)';

/** The payment a paid test checkout is known by (refunds and disputes name it). */
export const testPaymentRef = (checkoutId: string) => `testpay_${checkoutId}`;

function bankTransfer(checkoutId: string, amount: number, currency: Currency): BankTransfer {
  const reference = `HC-${checkoutId.slice(4, 12).toUpperCase()}`;
  const base = { payee: TEST_PAYEE, reference, amount, currency };
  if (currency === 'GBP') return { ...base, sortCode: '00-00-00', accountNumber: '00000000', bankName: 'Test Bank' };
  if (currency === 'EUR') return { ...base, iban: 'DE89370400440532013000', bic: 'TESTDEFFXXX', bankName: 'Test Bank' };
  return { ...base, routingNumber: '110000000', accountNumber: '000123456789', bankName: 'Test Bank' };
}

export function createTestProvider(publicBaseUrl: string): PaymentProvider {
  return {
    name: 'test',
    async createCheckout(request) {
      return {
        providerRef: `test_${request.checkoutId}`,
        paymentRef: request.method === 'bank_transfer' ? testPaymentRef(request.checkoutId) : null,
        url: `${publicBaseUrl}/pay/test/${request.checkoutId}`,
        bankTransfer: request.method === 'bank_transfer' ? bankTransfer(request.checkoutId, request.amount, request.currency) : null,
      };
    },
    async cancel() {
      return true;
    },
  };
}

/** What the test page's buttons do, as events (each form carries its event id, so a resubmitted form is a replay). */
export type TestAction = 'pay' | 'decline' | 'funds_received' | 'transfer_failed' | 'refund' | 'dispute' | 'dispute_won';
export const TEST_ACTIONS: readonly TestAction[] = ['pay', 'decline', 'funds_received', 'transfer_failed', 'refund', 'dispute', 'dispute_won'];

export function testEvent(action: TestAction, eventId: string, checkout: { id: string; amount: number }): PaymentEvent {
  const locator = { checkoutId: checkout.id, providerRef: null };
  const paymentRef = testPaymentRef(checkout.id);
  const type = `test.${action}`;
  switch (action) {
    case 'pay':
    case 'funds_received':
      return { id: eventId, type, kind: 'paid', checkout: locator, paymentRef };
    case 'decline':
    case 'transfer_failed':
      return { id: eventId, type, kind: 'failed', checkout: locator, expired: false };
    case 'refund':
      return { id: eventId, type, kind: 'refunded', paymentRef, refunded: checkout.amount };
    case 'dispute':
      return { id: eventId, type, kind: 'disputed', paymentRef, disputeId: `testdp_${checkout.id}`, amount: checkout.amount };
    case 'dispute_won':
      return { id: eventId, type, kind: 'dispute_closed', paymentRef, disputeId: `testdp_${checkout.id}`, amount: checkout.amount, won: true };
  }
}
