import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Closed, Nullable, RefOf } from '../../lib/typebox.ts';
import { actorOf, PORTAL_SESSION_ONLY } from '../../http/auth.ts';
import type { CreditsService } from './credits.service.ts';
import { BalanceSchema, BillingAlertsBodySchema, BillingAlertsSchema, LedgerRowSchema } from './credits.schemas.ts';

const TAG = ['Credits'];

export function creditsRoutes(deps: { credits: CreditsService }): FastifyPluginAsync {
  const { credits } = deps;
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/v1/billing/balance', {
      config: { scope: 'account:read' },
      schema: {
        operationId: 'getBalance',
        tags: TAG,
        summary: 'Credits, reserved credits, what expires, and what is left under the key\'s daily cap',
        response: { 200: RefOf(BalanceSchema) },
      },
    }, async (request) => {
      return credits.balance(actorOf(request));
    });

    app.get('/v1/billing/ledger', {
      config: { scope: 'account:read' },
      schema: {
        operationId: 'listLedger',
        tags: TAG,
        summary: 'Every movement of credits, newest first',
        description: 'Pages of 50 rows; pass `nextCursor` back as `cursor` for the next page.',
        querystring: Closed({ cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }),
        response: { 200: Closed({ rows: Type.Array(RefOf(LedgerRowSchema)), nextCursor: Nullable(Type.String()) }) },
      },
    }, async (request) => credits.ledger(actorOf(request), request.query.cursor));

    app.get('/v1/billing/alerts', {
      config: { scope: 'account:read' },
      schema: {
        operationId: 'getBillingAlerts',
        tags: TAG,
        summary: 'When the account is warned about its credits: the `credits.low` threshold (extension)',
        description: 'Extension. `lowCreditsThreshold`: the `credits.low` webhook event is sent when available credits fall from at least this many to fewer (0: never; default 1000). Changed with PATCH, by a portal session.',
        response: { 200: Closed({ alerts: RefOf(BillingAlertsSchema) }) },
      },
    }, async (request) => ({ alerts: await credits.billingAlerts(actorOf(request)) }));

    app.patch('/v1/billing/alerts', {
      config: PORTAL_SESSION_ONLY,
      schema: {
        operationId: 'updateBillingAlerts',
        tags: TAG,
        summary: 'Set the `credits.low` threshold (extension; portal session only)',
        description:
          'Extension. Portal session only: API keys get 403 `insufficient_scope`; on a team account, owners and admins only. ' +
          '`lowCreditsThreshold` 0 to 10,000,000 credits; 0 turns `credits.low` off. The next crossing uses the new value.',
        body: BillingAlertsBodySchema,
        response: { 200: Closed({ alerts: RefOf(BillingAlertsSchema) }) },
      },
    }, async (request) => ({ alerts: await credits.setBillingAlerts(actorOf(request), request.body) }));
  };
}
