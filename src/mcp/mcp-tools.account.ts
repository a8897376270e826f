import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolContext } from './mcp-deps.ts';
import { guard } from './mcp-errors.ts';
import { capText, reply } from './mcp-results.ts';

/** get_balance (GET /v1/billing/balance) and list_templates (GET /v1/templates). */
export function registerAccountTools(server: McpServer, ctx: ToolContext): void {
  server.registerTool('get_balance', {
    title: 'Credit balance',
    description: "The account's credits: available to spend, reserved by open questions, what expires soon, and what is left under this credential's daily spend cap. 1 credit = 1 penny (or cent).",
    inputSchema: {},
    outputSchema: z.looseObject({ credits: z.number(), reserved: z.number(), available: z.number(), capRemaining: z.number().nullable() }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  }, async () => guard(ctx, 'get_balance', 'account:read', async () => {
    const balance = await ctx.deps.credits.balance(ctx.actor);
    const available = balance.credits - balance.reserved;
    const expiring = balance.expiring.map((e) => `${e.credits} on ${e.expiresAt.slice(0, 10)}`);
    const text = [
      `${available} credits available to spend (balance ${balance.credits} ${balance.currency} credits, of which ${balance.reserved} reserved by open questions).`,
      `${capText(balance)[0].toUpperCase()}${capText(balance).slice(1)}.`,
      expiring.length ? `Expiring: ${expiring.join(', ')}.` : null,
      balance.freeQuestionToday ? "Today's free private question is still unused." : null,
      `Buy credits at ${ctx.options.publicBaseUrl}/app/credits.`,
    ].filter(Boolean).join('\n');
    return reply(text, { ...balance, available });
  }));

  server.registerTool('list_templates', {
    title: 'Question templates',
    description: 'Ready-made question drafts with their price. Pass a template id to ask as templateId (fields given in draft override it), or copy its draft.',
    inputSchema: {},
    outputSchema: z.looseObject({ templates: z.array(z.looseObject({ id: z.string(), name: z.string(), priceCredits: z.number() })) }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  }, async () => guard(ctx, 'list_templates', null, async () => {
    // Public on REST (it declares templates:read but needs no credential), so no scope is checked here either.
    const templates = ctx.deps.catalogues.templates();
    const text = [`${templates.length} templates:`, ...templates.map((t) => `- ${t.id}: ${t.name} (${t.priceCredits} credits): ${t.description}`)].join('\n');
    return reply(text, { templates: templates.map((t) => ({ ...t })) });
  }));
}
