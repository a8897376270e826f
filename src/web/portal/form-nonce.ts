import { randomUUID } from 'node:crypto';
import { AppError } from '../../lib/errors.ts';
import { formField, type PageRequest } from './portal-kit.ts';
import type { PortalContext } from './portal-context.ts';
import type { FormNoncesService } from '../../modules/accounts/form-nonces.service.ts';

/**
 * Forms that act once (docs/portal.md "Forms that act once"). A form whose answer shows a secret
 * (a new API key, a webhook endpoint's secret, a rotated one) answers with it directly rather than
 * redirecting, so the secret never sits in a URL; a browser reload then sends the same form again.
 * Each such form carries a fresh nonce (a UUID, new at every rendering of the form); its first
 * post uses it, and the same nonce posted again does nothing and is refused with a 409 shown on
 * the page. The keys page stores its nonce on the key itself (developer-keys.service.ts); other
 * forms claim theirs with `sentOnce` (form-nonces.service.ts).
 */
const NONCE = 'nonce';
const UUID = /^[0-9a-f-]{36}$/;

/** The hidden field of a form that acts once, for a form written out in full. */
export const nonceField = (): string => `<input type="hidden" name="${NONCE}" value="${randomUUID()}">`;

/** The same, as `buttonForm`'s hidden fields. */
export const nonceHidden = (): Record<string, string> => ({ [NONCE]: randomUUID() });

/** The nonce the form came with, or null when it has none (or not one of ours): then nothing guards it. */
export function formNonce(request: PageRequest): string | null {
  const value = formField(request, NONCE);
  return UUID.test(value) ? value : null;
}

/** The 409 a form sent again gets: `message` says what the first post did and that nothing was done now. */
export class FormSentAgain extends AppError {
  constructor(message: string) {
    super('conflict', message);
  }
}

/**
 * Runs `work` for this form once: the same form posted again (a reload) runs nothing and throws
 * FormSentAgain with `message`. A form without a nonce runs as before.
 */
export async function sentOnce<T>(forms: FormNoncesService, request: PageRequest, ctx: PortalContext, message: string, work: () => Promise<T>): Promise<T> {
  const result = await forms.once(ctx.actor, formNonce(request), work);
  if (result.sentAgain) throw new FormSentAgain(message);
  return result.value;
}
