import { requestHash } from '../modules/questions/ask.service.ts';
import type { Actor } from '../lib/actor.ts';
import type { ToolContext } from './mcp-deps.ts';

/**
 * "Retry never pays twice" (docs/agents.md "Safety rules"). An agent that loses a reply (a
 * timeout, a dropped connection) calls the tool again; without an `idempotencyKey` from the
 * caller, the key is derived from the credential and the call's arguments, so the same call
 * within DERIVED_KEY_WINDOW_MS of the first one returns the first one's question, flagged as
 * replayed, and a later identical call is a new ask (asking the same thing again next week is a
 * normal thing to do).
 *
 * The window slides: keys are cut into buckets of the window's length, and a call looks in its own
 * bucket and in the one before, where a key counts only while its stored response is younger than
 * the window (its `created_at`, read through the ask service). So a retry one second after a
 * bucket boundary is still caught, and a call 10 minutes and one second after the first is not.
 * The stored responses themselves are the ask's (24 hours per account, idempotency.ts); a
 * caller's own idempotencyKey keeps that full 24-hour window.
 */
export const DERIVED_KEY_WINDOW_MS = 10 * 60_000;

export interface CallKey {
  key: string;
  /** A response is stored under the key already: the call replays it and spends nothing. */
  stored: boolean;
  derived: boolean;
}

/** The credential a derived key belongs to: the key, or the OAuth connection (also in keyId), or the portal session. */
export function credentialOf(actor: Actor): string {
  return actor.keyId ?? (actor.session ? `ses:${actor.session.id}` : `acc:${actor.accountId}`);
}

/** The key of a spending call, and whether it has run already. `args` exclude `confirm` and `idempotencyKey`. */
export async function callKey(ctx: ToolContext, tool: string, args: Record<string, unknown>, explicit: string | undefined): Promise<CallKey> {
  const { actor, deps } = ctx;
  if (explicit !== undefined) return { key: explicit, stored: (await deps.asks.keyStoredAt(actor, explicit)) !== null, derived: false };

  const now = deps.clock.now().getTime();
  const bucket = Math.floor(now / DERIVED_KEY_WINDOW_MS);
  // Canonical JSON (sorted keys) of the tool and its arguments: the same call hashes the same.
  const hash = requestHash({ tool, args }).slice(0, 40);
  const keyIn = (b: number) => `mcp:${credentialOf(actor)}:${b}:${hash}`;

  const previous = keyIn(bucket - 1);
  const storedBefore = await deps.asks.keyStoredAt(actor, previous);
  if (storedBefore && now - storedBefore.getTime() < DERIVED_KEY_WINDOW_MS) return { key: previous, stored: true, derived: true };
  const current = keyIn(bucket);
  return { key: current, stored: (await deps.asks.keyStoredAt(actor, current)) !== null, derived: true };
}

/** The sentence a replayed spending call carries. */
export function replayNote(call: CallKey): string {
  return call.derived
    ? `Replayed: the same call with the same arguments was made less than ${DERIVED_KEY_WINDOW_MS / 60_000} minutes ago, so this returns its result and nothing new was reserved.`
    : 'Replayed: this idempotencyKey was used before with the same arguments, so this returns that result and nothing new was reserved.';
}

/**
 * The key a spending call's shown price is kept under (modules/questions/shown-prices.service.ts):
 * the credential, the tool and its arguments (without `confirm` and `idempotencyKey`), so a
 * confirm counts only for the very call that was priced.
 */
export function priceKey(ctx: ToolContext, tool: string, args: Record<string, unknown>): string {
  return `price:${credentialOf(ctx.actor)}:${requestHash({ tool, args }).slice(0, 40)}`;
}
