import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { RefOf } from '../../lib/typebox.ts';
import { SupportTicketRequestSchema, TicketCreatedSchema } from './support.schemas.ts';
import type { SupportService } from './support.service.ts';

const TAG = ['Support'];

/**
 * POST /v1/support/tickets (spec "Support"; docs/support.md). Public: the auth hook still resolves
 * a credential when one is sent (request.actor), and a bad one is ignored, so it counts as none.
 */
export function supportRoutes(deps: { support: SupportService }): FastifyPluginAsync {
  const { support } = deps;
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.post('/v1/support/tickets', {
      config: { scope: null, optionalCredential: true },
      schema: {
        operationId: 'createSupportTicket',
        tags: TAG,
        summary: 'Write to support',
        description:
          'Any credential (an API key or a portal session) or none. With a session the reply goes to the person\'s address; with a key to the account\'s, or to `email` ' +
          'when the account has none (400 `validation_failed` on `email` when neither is there); without a credential `email` is required. ' +
          'A confirmation with the ticket id is emailed at once. At most 10 tickets an hour per credential, or per IP address without one ' +
          '(429 `rate_limited` with `Retry-After`). `website` must stay empty and `openedAt` is when the form was opened (ms since the epoch): ' +
          'a post that fills `website`, or comes less than 3 seconds after `openedAt`, is answered the same way but dropped.',
        body: RefOf(SupportTicketRequestSchema),
        response: { 201: TicketCreatedSchema },
      },
    }, async (request, reply) => {
      return reply.code(201).send(await support.open(request.actor, request.body, { ip: request.ip }));
    });
  };
}
