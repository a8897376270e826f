import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AppError, type ValidationItem } from '../lib/errors.ts';
import type { Scope } from '../lib/actor.ts';
import type { ToolContext } from './mcp-deps.ts';

/**
 * Failures as tool results (docs/agents.md "Safety rules"): an agent reads `isError: true` and a
 * text that says what was wrong and what to do next, never a transport error it cannot act on.
 * The AppError catalogue (lib/errors.ts) is mapped code by code; anything else gets a generic
 * message and its cause goes to the log only (ARCHITECTURE §3 rule 4).
 */
export function errorResult(code: string, message: string, todo?: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: `Error (${code}): ${message}${todo ? `\nWhat to do: ${todo}` : ''}` }] };
}

export function missingScope(scope: Scope): CallToolResult {
  return errorResult('insufficient_scope', `This credential lacks the "${scope}" scope this tool needs; nothing was done.`, `Use an API key or connection that has the "${scope}" scope.`);
}

const num = (value: unknown): number | null => (typeof value === 'number' ? value : null);

function fieldLines(items: readonly ValidationItem[]): string {
  return items.map((item) => `- ${item.field}: ${item.message} (${item.code})`).join('\n');
}

/** What to do about each code of the catalogue (spec "Errors"). */
function advice(error: AppError, base: string, tool: string, grant: boolean): string | undefined {
  const details = error.details ?? {};
  switch (error.code) {
    case 'validation_failed': {
      const items = (details.validation as ValidationItem[] | undefined) ?? [];
      const estimate = tool === 'ask' ? '\nThe estimate tool checks a draft without spending anything.' : '';
      return `Fix ${items.length === 1 ? 'this field' : 'these fields'} and call again (nothing was spent):\n${fieldLines(items)}${estimate}`;
    }
    case 'insufficient_credits':
      return `Buy credits at ${base}/app/credits, or ask for fewer answers (a lower n). Nothing was spent.`;
    case 'spend_cap_exceeded': {
      const left = num(details.capRemaining);
      // A connection's cap was set by its person at consent (connect again to change it); a key's by an admin under Developers.
      const raise = grant
        ? `or ask your person to connect this app again with a higher cap (they can see it under ${base}/app/connections)`
        : `or have an admin of the account raise this key's cap in the portal (${base}/app/developers)`;
      return `${left === null ? 'The daily spend cap' : `The daily spend cap leaves ${left} credits today`}; ask for fewer answers, wait until tomorrow (UTC), ${raise}. Nothing was spent.`;
    }
    case 'insufficient_scope':
      return details.scope ? `Use a credential with the "${String(details.scope)}" scope.` : 'Use a credential that is allowed to do this.';
    case 'not_found':
      return 'Check the id: list_questions lists the questions of this account.';
    case 'rate_limited': {
      const ms = num(details.retryAfterMs);
      return ms === null ? 'Wait a minute, then call again.' : `Wait ${Math.ceil(ms / 1000)} seconds, then call again.`;
    }
    case 'content_refused':
      return `Reword the question${details.field ? ` (${String(details.field)})` : ''}; ${details.category ? `it was refused as "${String(details.category)}"; ` : ''}nothing was spent.`;
    case 'idempotency_conflict':
      return 'This idempotencyKey was already used with other arguments. Use a new key for a new call (or leave it out); nothing was spent.';
    case 'idempotency_in_progress':
      return 'The same call is still running. Wait a second and call again with the same arguments: it returns the same question and does not pay twice.';
    case 'conflict':
      return details.status ? `The question is ${String(details.status)}; get_question shows its state.` : 'get_question shows the current state.';
    case 'too_few_answers':
      return 'Wait for more written answers (wait_for_result), then try again.';
    case 'unauthorized':
      return 'Connect again with a valid API key or sign in again.';
    default:
      return undefined;
  }
}

/** Any failure of a tool as a tool result. */
export function toolError(error: unknown, ctx: ToolContext, tool: string): CallToolResult {
  if (error instanceof AppError && error.status < 500) {
    return errorResult(error.code, error.message, advice(error, ctx.options.publicBaseUrl, tool, ctx.actor.grant !== undefined));
  }
  ctx.options.log.error({ err: error, tool }, 'MCP tool failed');
  return errorResult(
    'internal',
    'Something went wrong on our side; it has been logged.',
    'Try again in a moment. Calling ask or add_heads again with the same arguments is safe: a retry never pays twice.',
  );
}

/**
 * Runs a tool's work once its scope is checked (the scope its REST route needs; null for public
 * routes), turning every failure into a tool result.
 */
export async function guard(ctx: ToolContext, tool: string, scope: Scope | null, work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  if (scope && !ctx.actor.scopes.includes(scope)) return missingScope(scope);
  try {
    return await work();
  } catch (error) {
    return toolError(error, ctx, tool);
  }
}
