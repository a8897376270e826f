import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolContext } from './mcp-deps.ts';
import { guard, toolError } from './mcp-errors.ts';
import { callKey, priceKey, replayNote } from './mcp-idempotency.ts';
import { aboutTime, balanceFor, capText, moneyJson, moneyLine, reply } from './mcp-results.ts';
import { validationError } from '../lib/errors.ts';
import { AddHeadsBodySchema } from '../modules/questions/questions.schemas.ts';
import { QuestionIdArg, restCheck, zodOf } from './mcp-schemas.ts';
import { affordable, mayReserve, showPrice, SpendingArgs, SpendOut, withoutConfirmation } from './mcp-tools.ask.ts';

/**
 * add_heads: more answers for a question that closed complete or underfilled (POST
 * /v2/questions/{id}/heads). It spends, so it follows the ask's rules: the quote first (the
 * service's own dry run) and `confirm: true`, and retries caught by the idempotency key.
 */
const checkHeads = restCheck(AddHeadsBodySchema);
const HEADS_INPUT = { questionId: QuestionIdArg, n: zodOf(AddHeadsBodySchema.properties.n, 'How many more answers (1 to 5000).'), ...SpendingArgs };

export function registerHeadsTools(server: McpServer, ctx: ToolContext): void {
  server.registerTool('add_heads', {
    title: 'Add heads to a closed question',
    description:
      'Reopens a complete or underfilled question for n more answers at its price per answer; heads who answered already are left out and new answers merge with the old. ' +
      'The first call returns the price and asks for confirmation (nothing is spent, even with confirm: true): call again with the same arguments and confirm: true. Only a price within what the person let this app spend without asking goes ahead on the first call. A retry never pays twice.',
    inputSchema: HEADS_INPUT,
    outputSchema: SpendOut,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  }, async ({ questionId, idempotencyKey, confirm, ...args }) => guard(ctx, 'add_heads', 'questions:write', async () => {
    const { actor, deps } = ctx;
    const body = checkHeads({ n: args.n });
    if (!body.ok) return toolError(validationError(body.items), ctx, 'add_heads');
    const { n } = body.value;
    const call = await callKey(ctx, 'add_heads', { questionId, n }, idempotencyKey);
    // The dry run checks the question can take more heads and prices them; a replay needs neither.
    const quote = call.stored ? null : (await deps.addHeads.addHeads(actor, questionId, { n, dryRun: true }, undefined)).body.quote;
    const key = priceKey(ctx, 'add_heads', { questionId, n });
    if (quote && !(await mayReserve(ctx, key, quote.creditsTotal, confirm))) {
      const balance = await balanceFor(ctx);
      const refusal = affordable(quote.creditsTotal, balance, 'Adding these heads');
      if (refusal) return toolError(refusal, ctx, 'add_heads');
      const money = balance ? ` (${capText(balance)}, balance ${balance.credits - balance.reserved} credits available)` : '';
      const text =
        (await showPrice(ctx, key, quote.creditsTotal, confirm)) +
        `This will reserve ${quote.creditsTotal} credits${money}: ${quote.line}, ${aboutTime(quote.etaMinutes)} to answer. Nothing has been spent yet.\n` +
        'Call add_heads again with the same arguments and confirm: true.';
      return reply(text, { confirmationRequired: true, quote: { ...quote }, balance: moneyJson(balance) });
    }

    const result = await deps.addHeads.addHeads(actor, questionId, { n }, call.key);
    const q = result.body.question!;
    const reserved = result.replayed ? 0 : (result.body.creditsReserved ?? 0);
    const balance = await balanceFor(ctx);
    const text = [
      `Added ${n} head${n === 1 ? '' : 's'} to ${q.id}: it is ${q.status} again, ${q.answered} of ${q.n} answers.`,
      result.replayed ? replayNote(call) : `Reserved ${reserved} credits: ${result.body.quote.line}. Credits of answers not given come back when it closes.`,
      withoutConfirmation(ctx, confirm, result.replayed, reserved),
      moneyLine(balance),
      `Next: call wait_for_result with questionId "${q.id}".`,
    ].filter(Boolean).join('\n');
    return reply(text, { confirmationRequired: false, replayed: result.replayed, creditsReserved: reserved, quote: { ...result.body.quote }, question: { ...q }, balance: moneyJson(balance) });
  }));
}
