import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Closed, IdParams, RefOf } from '../../lib/typebox.ts';
import { actorOf, PORTAL_SESSION_ONLY } from '../../http/auth.ts';
import { notCached } from '../../http/responses.ts';
import { validationError } from '../../lib/errors.ts';
import type { CheckoutService } from './checkout.service.ts';
import type { PaymentEventsService } from './payment-events.service.ts';
import { ProviderEventError, type PaymentEvent } from './payment-provider.ts';
import { CheckoutBodySchema, CheckoutSchema } from './billing.schemas.ts';

const TAG = ['Credits'];

export interface BillingRouteDeps {
  checkouts: CheckoutService;
  paymentEvents: PaymentEventsService;
  /** Stripe's event reader (signature first); null with the test provider, whose events come from its own page. */
  stripeEvents: ((rawBody: string, signature: string | undefined) => PaymentEvent) | null;
}

export function billingRoutes(deps: BillingRouteDeps): FastifyPluginAsync {
  const { checkouts, paymentEvents, stripeEvents } = deps;
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.post('/v1/billing/checkout', {
      config: PORTAL_SESSION_ONLY,
      schema: {
        operationId: 'startCheckout',
        tags: TAG,
        summary: 'Start buying a credit pack: where to pay, by card or bank transfer',
        description:
          'Portal session only: API keys get 403 `insufficient_scope`. `currency` must be the account\'s (1 credit = 1 minor unit of it). ' +
          'The response says where to pay (`url`) and, for a bank transfer, the payee details and reference; a bank transfer writes a `pending` purchase row at once. ' +
          'Credits are added when the provider confirms the payment (a `purchase` row, then `credits.purchased`), exactly once. Bank transfers are not taken in CAD.',
        body: CheckoutBodySchema,
        response: { 200: Closed({ checkout: RefOf(CheckoutSchema) }) },
      },
    }, async (request, reply) => {
      notCached(reply);
      return { checkout: await checkouts.start(actorOf(request), request.body) };
    });

    app.get('/v1/billing/checkouts', {
      config: PORTAL_SESSION_ONLY,
      schema: {
        operationId: 'listCheckouts',
        tags: TAG,
        summary: "The account's latest checkouts (up to 20), newest first",
        response: { 200: Closed({ checkouts: Type.Array(RefOf(CheckoutSchema)) }) },
      },
    }, async (request) => ({ checkouts: await checkouts.recent(actorOf(request), 20) }));

    app.get('/v1/billing/checkouts/:id', {
      config: PORTAL_SESSION_ONLY,
      schema: { operationId: 'getCheckout', tags: TAG, summary: 'One checkout: whether it is paid yet', params: IdParams, response: { 200: Closed({ checkout: RefOf(CheckoutSchema) }) } },
    }, async (request) => ({ checkout: await checkouts.get(actorOf(request), request.params.id) }));

    if (stripeEvents) {
      // Stripe's events, signed over the exact bytes sent: this route alone reads its body as text.
      await app.register(async (raw) => {
        raw.removeContentTypeParser('application/json');
        raw.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
        raw.post('/v1/billing/webhooks/stripe', { schema: { hide: true }, config: { scope: null } }, async (request, reply) => {
          let event: PaymentEvent;
          try {
            event = stripeEvents(String(request.body ?? ''), request.headers['stripe-signature'] as string | undefined);
          } catch (error) {
            if (!(error instanceof ProviderEventError)) throw error;
            request.log.warn({ err: error }, 'Stripe event refused');
            throw validationError([{ field: 'stripe-signature', code: 'invalid_format', message: 'The Stripe-Signature header does not verify; nothing was applied.' }], error.message);
          }
          const outcome = await paymentEvents.apply(event);
          request.log.info({ stripeEvent: event.id, type: event.type, outcome }, 'Stripe event');
          return reply.send({ received: true, outcome });
        });
      });
    }
  };
}
