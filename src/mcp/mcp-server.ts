import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Actor } from '../lib/actor.ts';
import type { McpDeps, McpOptions, ToolContext } from './mcp-deps.ts';
import { registerAskTools } from './mcp-tools.ask.ts';
import { registerHeadsTools } from './mcp-tools.heads.ts';
import { registerQuestionTools } from './mcp-tools.questions.ts';
import { registerResultTools } from './mcp-tools.results.ts';
import { registerAccountTools } from './mcp-tools.account.ts';
import { registerResources } from './mcp-resources.ts';

/**
 * What the model is told about this server (MCP `instructions`): the order of a normal session
 * and the two promises that matter when money is involved (docs/agents.md).
 */
const INSTRUCTIONS = [
  'Headcount asks short questions of verified people ("heads") and returns the split of their answers.',
  'Usual order: estimate (free) → ask (returns the price first; call again with confirm: true) → wait_for_result (repeat while done is false) → get_result / get_insights.',
  'Money is in credits (1 credit = 1 penny). ask and add_heads reserve credits; unanswered credits come back. Retrying the same call within 10 minutes never pays twice.',
  'Results answered by simulated heads say so; never present them as real people.',
].join('\n');

/**
 * A new MCP server for one request and one caller (the transport is stateless, so any process can
 * serve any request): the tools and resources, each a thin adapter over the services the REST
 * routes use, acting as `actor`.
 */
export function createMcpServer(deps: McpDeps, actor: Actor, options: McpOptions): McpServer {
  const server = new McpServer({ name: 'headcount', title: 'Headcount', version: '2.0.0' }, { instructions: INSTRUCTIONS });
  const ctx: ToolContext = { actor, deps, options };
  registerAskTools(server, ctx);
  registerHeadsTools(server, ctx);
  registerQuestionTools(server, ctx);
  registerResultTools(server, ctx);
  registerAccountTools(server, ctx);
  registerResources(server, ctx);
  return server;
}
