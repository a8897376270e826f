import { sessionOf, type Actor } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import type { FormNoncesRepository } from './form-nonces.repository.ts';

/** How long a claimed nonce is kept: a form sent again after this acts again. */
export const FORM_NONCE_DAYS = 30;

/**
 * Portal forms that act once (docs/portal.md "Forms that act once"): a form whose answer shows a
 * secret is not redirected (the secret must never sit in a URL), so a browser reload sends it
 * again. Such a form carries a fresh nonce; `once` claims it for the signed-in person's account
 * before the work and gives it back if the work fails, so the same form does the work at most
 * once, across processes. (API keys keep their nonce on the key's row instead, claimed in the same
 * insert: accounts.service.ts.)
 */
export function createFormNoncesService(deps: { repo: FormNoncesRepository; clock: Clock }) {
  const { repo, clock } = deps;
  return {
    /**
     * Runs `work` unless this form's nonce was used before: then `{ sentAgain: true }` and nothing
     * runs. No nonce (a crafted form): nothing to guard with, the work runs.
     */
    async once<T>(actor: Actor, nonce: string | null, work: () => Promise<T>): Promise<{ sentAgain: true } | { sentAgain: false; value: T }> {
      sessionOf(actor);
      if (nonce === null) return { sentAgain: false, value: await work() };
      if (!(await repo.claim(actor.accountId, nonce, clock.now()))) return { sentAgain: true };
      try {
        return { sentAgain: false, value: await work() };
      } catch (error) {
        // Nothing was done: the same form may try again (a reload after a refusal or a failure).
        await repo.release(actor.accountId, nonce).catch(() => undefined);
        throw error;
      }
    },

    /** Forgets nonces older than FORM_NONCE_DAYS; returns how many (the daily job). */
    async prune(): Promise<number> {
      return repo.deleteOlderThan(new Date(clock.now().getTime() - FORM_NONCE_DAYS * 86_400_000));
    },
  };
}
export type FormNoncesService = ReturnType<typeof createFormNoncesService>;
