import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../lib/errors.ts';
import type { ToolContext } from './mcp-deps.ts';

/**
 * Results and questions as MCP resources, so a client can attach a result to a conversation:
 * `headcount://questions/{id}/result` (the Result JSON, as GET /v2/questions/{id}/result) and
 * `headcount://questions/{id}` (the Question). Both need `questions:read`, like their routes.
 * Resource reads have no `isError` result, so failures are JSON-RPC errors: -32002 for a
 * resource that does not exist (MCP specification, "Resources: error handling").
 */
const RESOURCE_NOT_FOUND = -32002;
const RECENT = 20;

/**
 * A JSON-RPC error with exactly `message`: the SDK sends an error's `message` and `code` as they
 * are, and McpError's message already starts "MCP error -32002: ", which a client's McpError then
 * prefixes again ("MCP error -32002: MCP error -32002: …").
 */
function rpcError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

async function read(ctx: ToolContext, uri: URL, load: () => Promise<unknown>): Promise<ReadResourceResult> {
  if (!ctx.actor.scopes.includes('questions:read')) {
    throw rpcError(ErrorCode.InvalidRequest, 'This credential lacks the "questions:read" scope that reading questions and results needs.');
  }
  try {
    return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(await load()) }] };
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') throw rpcError(RESOURCE_NOT_FOUND, `${error.message} (${uri.href})`);
    if (error instanceof AppError && error.status < 500) throw rpcError(ErrorCode.InvalidParams, error.message);
    ctx.options.log.error({ err: error, uri: uri.href }, 'MCP resource read failed');
    throw rpcError(ErrorCode.InternalError, 'Something went wrong on our side; it has been logged.');
  }
}

/** The id in a filled-in template (a single value; lists are not used by these templates). */
const idOf = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? '';

export function registerResources(server: McpServer, ctx: ToolContext): void {
  const { actor, deps } = ctx;
  // resources/list shows the latest questions' results; a credential without questions:read sees none.
  const recent = async () => (actor.scopes.includes('questions:read') ? (await deps.questions.list(actor, { limit: RECENT })).questions : []);

  server.registerResource(
    'question-result',
    new ResourceTemplate('headcount://questions/{id}/result', {
      list: async () => ({
        resources: (await recent()).map((q) => ({ uri: `headcount://questions/${q.id}/result`, name: `Result of ${q.id}`, title: `Result: ${q.text}`, mimeType: 'application/json' })),
      }),
    }),
    { title: 'Result of a question', description: 'The result of one question as JSON (partial while it is live), as get_result returns it.', mimeType: 'application/json' },
    (uri, variables) => read(ctx, uri, async () => ({ result: await deps.results.forAccount(actor.accountId, idOf(variables.id)) })),
  );

  server.registerResource(
    'question',
    new ResourceTemplate('headcount://questions/{id}', { list: undefined }),
    { title: 'A question', description: 'One question as JSON: draft, status, answers so far and money.', mimeType: 'application/json' },
    (uri, variables) => read(ctx, uri, async () => ({ question: await deps.questions.get(actor, idOf(variables.id)) })),
  );
}
