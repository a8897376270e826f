import type { FastifyBaseLogger } from 'fastify';
import { answerSentiment } from './modules/text/sentiment.ts';

/** After the first /readyz a supervisor polls, long before a question asked then gets its first answer. */
const WARM_UP_DELAY_MS = 500;

/**
 * What is made on first use to keep it off the start (issue 15), made soon after the service
 * is ready instead, so that no request pays for it: the sentiment model (~100 ms, and inside
 * the first written answer's transaction, which holds the question's row lock meanwhile) and
 * the OAuth server (an agent's first OAuth request). main.ts and the bench's app server both
 * call this, so the bench measures what production runs. The timer keeps no process alive.
 */
export function warmUpSoonAfterReady(container: { oauthProvider(): Promise<unknown> }, log: FastifyBaseLogger): void {
  setTimeout(() => {
    answerSentiment('en', 'ready', null);
    container.oauthProvider().catch((error: unknown) => log.error({ err: error }, 'could not make the OAuth server; the next OAuth request tries again'));
  }, WARM_UP_DELAY_MS).unref();
}
