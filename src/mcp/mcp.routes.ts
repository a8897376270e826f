import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import { loadOnce } from '../lib/load-once.ts';
import type { McpDeps } from './mcp-deps.ts';
import { bearerChallenge, METADATA_PATH, protectedResourceMetadata } from './mcp-metadata.ts';

export interface McpRoutesOptions {
  /** config.publicBaseUrl: the resource's address and the links in tool results. */
  publicBaseUrl: string;
}

/**
 * The MCP endpoint (docs/agents.md): Streamable HTTP on `POST /mcp`, stateless (a new server and
 * transport per request, closed with the response), so any API process serves any request and a
 * load balancer needs no stickiness. The global auth hook has resolved the bearer credential
 * (audience 'mcp', so OAuth tokens issued for this resource are accepted); without an actor the
 * answer is a 401 whose `WWW-Authenticate` names the protected resource metadata (RFC 9728 §5.1),
 * which is how an MCP client finds where to sign in. Browser-based clients read the metadata and
 * call /mcp from other origins: both allow any origin, which is safe because the credential is a
 * bearer header, never a cookie.
 */
const MCP_ROUTE = { config: { scope: null, audience: 'mcp' as const }, schema: { hide: true } };
const PUBLIC_HIDDEN = { config: { scope: null }, schema: { hide: true } };
const ANY_ORIGIN = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'www-authenticate, mcp-session-id' };
const PREFLIGHT = {
  ...ANY_ORIGIN,
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id',
  'access-control-max-age': '86400',
};

/** No usable credential: 401 with the challenge, or the credential's own refusal when it is not a 401 (a 403 for an account the person is not in). */
function refused(request: FastifyRequest, base: string): AppError {
  const error = request.authError;
  if (error && error.status !== 401) return new AppError(error.code, error.message, error.details, { ...error.headers, ...ANY_ORIGIN });
  return new AppError(
    'unauthorized',
    error?.message ?? 'This endpoint needs a credential: send an API key as "Authorization: Bearer <key>", or sign in with OAuth (the WWW-Authenticate header says where).',
    undefined,
    { 'www-authenticate': bearerChallenge(base, error !== null), ...ANY_ORIGIN },
  );
}

/**
 * The MCP SDK, zod and the tools load on the first MCP request, not at start-up: about 80 ms of
 * every start (issue 15) for an endpoint only agents call.
 */
const loadMcp = loadOnce(() => Promise.all([import('./mcp-server.ts'), import('@modelcontextprotocol/sdk/server/streamableHttp.js')]));

const preflight = async (_request: FastifyRequest, reply: FastifyReply) => reply.code(204).headers(PREFLIGHT).send();

export function mcpRoutes(deps: McpDeps, options: McpRoutesOptions): FastifyPluginAsync {
  const base = options.publicBaseUrl;
  return async (app) => {
    // A tool call may wait for answers (wait_for_result, up to 55 s): a long-poll for the metrics.
    app.post('/mcp', { ...MCP_ROUTE, config: { ...MCP_ROUTE.config, longPoll: true } }, async (request, reply) => {
      const actor = request.actor;
      if (!actor) throw refused(request, base);
      const [{ createMcpServer }, { StreamableHTTPServerTransport }] = await loadMcp();
      const server = createMcpServer(deps, actor, { publicBaseUrl: base, log: request.log });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      // The SDK writes the response itself. Headers hooks set on the reply (request id, nosniff,
      // rate-limit counters) are copied over, since a hijacked reply never sends them.
      reply.hijack();
      const res = reply.raw;
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) res.setHeader(name, value);
      for (const [name, value] of Object.entries(ANY_ORIGIN)) res.setHeader(name, value);
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(request.raw, res, request.body);
      } catch (error) {
        request.log.error({ err: error }, 'MCP request failed');
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null }));
        }
      }
    });

    // Stateless: no server-to-client stream (GET) and no session to end (DELETE), as the SDK's
    // stateless examples answer.
    const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
      reply
        .code(405)
        .headers({ allow: 'POST', ...ANY_ORIGIN })
        .send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; send JSON-RPC messages with POST.' }, id: null });
    app.get('/mcp', MCP_ROUTE, notAllowed);
    app.delete('/mcp', MCP_ROUTE, notAllowed);
    app.options('/mcp', PUBLIC_HIDDEN, preflight);

    // RFC 9728 §3: at the resource's own path, and at the bare well-known path for clients that
    // look there first.
    for (const path of [`${METADATA_PATH}/mcp`, METADATA_PATH]) {
      app.get(path, PUBLIC_HIDDEN, async (_request, reply) => reply.headers({ ...ANY_ORIGIN, 'cache-control': 'public, max-age=3600' }).send(protectedResourceMetadata(base)));
      app.options(path, PUBLIC_HIDDEN, preflight);
    }
  };
}
