import type { FastifyPluginAsync } from 'fastify';
import formBody from '@fastify/formbody';
import type { Config } from '../../config.ts';
import { randomBase62 } from '../../lib/base62.ts';
import type { CheckoutService } from '../../modules/billing/checkout.service.ts';
import type { PaymentEventsService } from '../../modules/billing/payment-events.service.ts';
import { TEST_ACTIONS, testEvent, type TestAction } from '../../modules/billing/test-provider.ts';
import { pageHeaders } from '../../http/page-headers.ts';
import { isCrossSite } from '../../http/cross-site.ts';
import type { AssetBundle } from '../shared/assets.ts';
import { messagePage } from '../shared/html.ts';
import { testProviderPage } from './test-provider.html.ts';

const CHECKOUT_ID = /^chk_[0-9A-Za-z]{20}$/;
const EVENT_ID = /^evt_test_[0-9A-Za-z]{20}$/;

/**
 * The test provider's page (development and test only: registered when PAYMENTS_PROVIDER=test,
 * which production refuses). Outside /app on purpose, like a provider's own site: the portal's
 * cookies are not sent here. The checkout id in the address is the capability (~119 random bits).
 */
export function testProviderRoutes(deps: { checkouts: CheckoutService; paymentEvents: PaymentEventsService; config: Config }, assets: AssetBundle): FastifyPluginAsync {
  const { checkouts, paymentEvents, config } = deps;
  const headers = pageHeaders(config, { scripts: false });
  const notFound = () => messagePage({ assets, lang: 'en', title: 'No such test payment', body: 'This checkout does not exist on this server.', icon: '?' });
  const eventId = () => `evt_test_${randomBase62(20)}`;

  return async (app) => {
    // One value per field, whatever a crafted form repeats (as the portal reads its forms).
    await app.register(formBody, { bodyLimit: 4096, parser: (text) => new URLSearchParams(text) as unknown as Record<string, unknown> });

    app.get<{ Params: { id: string } }>('/pay/test/:id', { schema: { hide: true }, config: { scope: null } }, async (request, reply) => {
      reply.headers(headers);
      const checkout = CHECKOUT_ID.test(request.params.id) ? await checkouts.byId(request.params.id) : null;
      if (!checkout) return reply.status(404).send(notFound());
      return testProviderPage({ assets, checkout, eventId });
    });

    app.post<{ Params: { id: string }; Body: URLSearchParams | undefined }>('/pay/test/:id', { schema: { hide: true }, config: { scope: null } }, async (request, reply) => {
      reply.headers(headers);
      const checkout = CHECKOUT_ID.test(request.params.id) ? await checkouts.byId(request.params.id) : null;
      if (!checkout) return reply.status(404).send(notFound());
      // Its buttons post from this page: another site's form (which would have to know the
      // checkout's id) cannot pay, refund or dispute through a visitor's browser.
      if (isCrossSite(request, config.publicBaseUrl)) {
        return reply.status(403).send(testProviderPage({ assets, checkout, eventId, notice: 'That form came from another site; nothing was done. Use the buttons on this page.' }));
      }
      // Only this page's form counts: a JSON body (Fastify's own parser) is no button of it.
      const form = request.body instanceof URLSearchParams ? request.body : null;
      const action = (form?.get('action') ?? undefined) as TestAction | undefined;
      const event = form?.get('event') ?? undefined;
      if (!action || !TEST_ACTIONS.includes(action) || !event || !EVENT_ID.test(event)) {
        return reply.status(400).send(testProviderPage({ assets, checkout, eventId, notice: 'That was not one of this page\'s buttons.' }));
      }
      const outcome = await paymentEvents.apply(testEvent(action, event, checkout));
      request.log.info({ testEvent: event, action, outcome }, 'test provider event');
      // Like a provider's page: back to the shop once paid; otherwise this page again, showing what happened.
      // The return address is made relative when it is on this server, so the browser stays on the host it used.
      const paid = action === 'pay' || action === 'funds_received';
      const back = checkout.returnUrl.startsWith(`${config.publicBaseUrl}/`) ? checkout.returnUrl.slice(config.publicBaseUrl.length) : checkout.returnUrl;
      return reply.redirect(paid ? back : `/pay/test/${checkout.id}`, 303);
    });
  };
}
