import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Closed, Nullable, RefOf } from '../../lib/typebox.ts';
import { actorOf } from '../../http/auth.ts';
import type { CreditsService } from './credits.service.ts';
import { BalanceSchema, LedgerRowSchema } from './credits.schemas.ts';

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
  };
}
