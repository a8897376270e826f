import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AppError, validationError } from '../lib/errors.ts';
import { AskBodySchema } from '../modules/questions/ask.schemas.ts';
import { EstimateBodyShape, EstimateDraftSchema } from '../modules/estimate/estimate.schemas.ts';
import { compileFor, toValidationItems } from '../lib/validation.ts';
import type { LooseDraft } from '../modules/draft/draft-validator.ts';
import type { AskQuote } from '../modules/questions/ask.service.ts';
import type { Balance } from '../modules/credits/credits.schemas.ts';
import type { ToolContext } from './mcp-deps.ts';
import { guard, toolError } from './mcp-errors.ts';
import { callKey, priceKey, replayNote } from './mcp-idempotency.ts';
import { aboutTime, balanceFor, capText, moneyJson, moneyLine, reply } from './mcp-results.ts';
import { given, restCheck, zodFields, zodOf } from './mcp-schemas.ts';

/**
 * estimate and ask (docs/agents.md "Tools"). The ask spends, so it goes in two steps (Safety
 * rules): the first call prices it exactly (the ask service's own plan) and
 * asks for `confirm: true`, unless the price is within what the person let this agent spend
 * without asking (an OAuth grant's autoApproveCredits; 0 for keys and sessions). Retries are
 * caught by the derived idempotency key (mcp-idempotency.ts).
 */
const checkAsk = restCheck(AskBodySchema);
const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
// The REST estimate's own check (estimate.routes.ts): JSON types only, so a draft that breaks a
// rule is still priced and the rule comes back in `validation` (spec "Pricing and config").
const checkEstimateShape = compileFor('body', EstimateBodyShape);

export const SpendingArgs = {
  idempotencyKey: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Optional. The same key with the same arguments returns the first result for 24 hours and never pays twice. Without one, the same call within 10 minutes is recognised as a retry.'),
  confirm: z.boolean().optional().describe('Set true, after reading the price the first call returned, to go ahead and reserve the credits.'),
};

// Built once: the JSON of the REST schemas does not change between requests.
const ESTIMATE_INPUT = {
  draft: zodOf(EstimateDraftSchema, 'The question to price, as ask takes it; or with interestAudienceId (and minGrade 1, interestPrice) to price asking an interest audience, which is then asked from a saved draft (fromDraftId).'),
};
const ASK_INPUT = { ...zodFields(AskBodySchema), ...SpendingArgs };
export const SpendOut = z.looseObject({
  confirmationRequired: z.boolean(),
  replayed: z.boolean().optional(),
  creditsReserved: z.number().optional(),
  quote: z.looseObject({}).optional(),
  question: z.looseObject({ id: z.string(), status: z.string() }).optional(),
  balance: z.looseObject({}).nullable().optional(),
});

/** A predictable refusal before asking for confirmation: telling the agent to confirm a call that must fail would waste a turn. */
export function affordable(total: number, balance: Balance | null, what: string): AppError | null {
  if (!balance || total === 0) return null;
  if (balance.capRemaining !== null && total > balance.capRemaining) {
    return new AppError('spend_cap_exceeded', `${what} needs ${total} credits but the daily cap leaves ${balance.capRemaining}; nothing was spent.`, { capRemaining: balance.capRemaining, needed: total });
  }
  const available = balance.credits - balance.reserved;
  return total > available ? new AppError('insufficient_credits', `${what} needs ${total} credits and ${available} are available; nothing was spent.`, { needed: total, available }) : null;
}

/** Within what the person let this agent spend without asking (lib/actor.ts GrantActor). */
export const autoApproved = (ctx: ToolContext, total: number) => total <= (ctx.actor.grant?.autoApproveCredits ?? 0);

/**
 * Whether a spending call reserves now: within the person's auto-approve amount, or `confirm:
 * true` after this very call showed its price (at no less than now) in the last ten minutes.
 * Otherwise the call shows the price, which is remembered for the confirm.
 */
export async function mayReserve(ctx: ToolContext, key: string, total: number, confirm: boolean | undefined): Promise<boolean> {
  if (autoApproved(ctx, total)) return true;
  return confirm === true && (await ctx.deps.shownPrices.shown(ctx.actor, key, total));
}

/** The first line of a price shown instead of reserving: why a `confirm: true` did not reserve, when it was sent. */
export async function showPrice(ctx: ToolContext, key: string, total: number, confirm: boolean | undefined): Promise<string> {
  await ctx.deps.shownPrices.remember(ctx.actor, key, total);
  return confirm === true ? 'Nothing was reserved: confirm: true counts only after this same call has shown its price (in the last 10 minutes, at no less than now), and it had not.\n' : '';
}

/** Says why credits were reserved without a confirming call, so the agent can tell its person. */
export function withoutConfirmation(ctx: ToolContext, confirm: boolean | undefined, replayed: boolean, reserved: number): string | null {
  if (confirm === true || replayed || reserved === 0) return null;
  const allowance = ctx.actor.grant?.autoApproveCredits ?? 0;
  return `Asked without a confirmation step: the price is within the ${allowance} credits the person let this app spend without asking.`;
}

function priceWords(quote: AskQuote): string {
  const follow = quote.followUpCredits ? ` + ${quote.followUpCredits} for follow-ups` : '';
  const free = quote.freePrivate ? ' (today\'s free private question)' : '';
  return `${quote.n} answers × ${quote.creditsPerAnswer} credits${free}${follow}`;
}

export function registerAskTools(server: McpServer, ctx: ToolContext): void {
  server.registerTool('estimate', {
    title: 'Price a question',
    description: 'Prices and checks a question draft without spending anything: the exact credits an ask of this draft reserves, the time to answer, how many heads match, and every rule the draft breaks.',
    inputSchema: ESTIMATE_INPUT,
    outputSchema: z.looseObject({ creditsTotal: z.number(), creditsPerAnswer: z.number(), etaMinutes: z.number(), validation: z.array(z.looseObject({})) }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  }, async (args) => guard(ctx, 'estimate', null, async () => {
    if (!checkEstimateShape({ draft: args.draft })) {
      return toolError(validationError(toValidationItems(checkEstimateShape.errors ?? [])), ctx, 'estimate');
    }
    // Shape-checked just above, as the REST route's body is (estimate.routes.ts casts alike).
    const estimate = await ctx.deps.estimates.estimate(args.draft as LooseDraft, ctx.actor.accountId);
    const problems = estimate.validation.map((item) => `- ${item.field}: ${item.message}`);
    const text = [
      `Price: ${estimate.creditsTotal} credits (${estimate.breakdownLine}). ${capitalized(aboutTime(estimate.etaMinutes))} to answer${estimate.poolSize === null ? '' : `; ${estimate.poolSize} heads ${args.draft && typeof args.draft === 'object' && 'interestAudienceId' in args.draft ? 'of the audience can answer' : 'match the targeting'}`}.`,
      problems.length ? `This draft cannot be asked yet:\n${problems.join('\n')}` : 'The draft can be asked as it is; ask reserves exactly this price.',
      'Nothing was spent.',
    ].join('\n');
    return reply(text, { ...estimate });
  }));

  server.registerTool('ask', {
    title: 'Ask verified people a question',
    description:
      'Asks heads (verified people) a short question and reserves its full price; each answer spends its share and what is not answered comes back. ' +
      'The first call only returns the exact price and asks for confirmation (nothing is spent, even with confirm: true): call again with the same arguments and confirm: true. ' +
      'Only a price within what the person let this app spend without asking goes ahead on the first call. ' +
      'A retry of the same call within 10 minutes (or with the same idempotencyKey) returns the same question and never pays twice. Then call wait_for_result.',
    inputSchema: ASK_INPUT,
    outputSchema: SpendOut,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  }, async (args) => guard(ctx, 'ask', 'questions:write', async () => {
    const { confirm, idempotencyKey, ...rest } = args;
    const body = checkAsk(given(rest));
    if (!body.ok) return toolError(validationError(body.items), ctx, 'ask');
    const call = await callKey(ctx, 'ask', body.value, idempotencyKey);
    // A replay spends nothing, so it needs no confirmation (and no second quote).
    const quote = call.stored ? null : await ctx.deps.asks.quote(ctx.actor, body.value);
    const key = priceKey(ctx, 'ask', body.value);
    if (quote && !(await mayReserve(ctx, key, quote.creditsTotal, confirm))) {
      const balance = await balanceFor(ctx);
      const refusal = affordable(quote.creditsTotal, balance, 'This ask');
      if (refusal) return toolError(refusal, ctx, 'ask');
      const money = balance ? ` (${capText(balance)}, balance ${balance.credits - balance.reserved} credits available)` : '';
      const text =
        (await showPrice(ctx, key, quote.creditsTotal, confirm)) +
        `This will reserve ${quote.creditsTotal} credits${money}: ${priceWords(quote)}, ${aboutTime(quote.etaMinutes)} to answer. Nothing has been spent yet.\n` +
        'Call ask again with the same arguments and confirm: true.';
      return reply(text, { confirmationRequired: true, quote: { ...quote }, balance: moneyJson(balance) });
    }

    const result = await ctx.deps.asks.ask(ctx.actor, body.value, call.key, 'mcp');
    const q = result.body.question;
    // The question row holds its own reservation; follow-ups reserve theirs beside it (priced alike).
    const reserved = result.replayed ? 0 : q.creditsReserved + (quote?.followUpCredits ?? 0);
    const balance = await balanceFor(ctx);
    const text = [
      `Asked ${q.id}: "${q.text}". Status ${q.status}, ${q.answered} of ${q.n} answers so far, ${aboutTime(q.etaMinutes)} to answer.`,
      result.replayed ? replayNote(call) : `Reserved ${reserved} credits${quote ? ` (${priceWords(quote)})` : ''}; credits of answers not given come back when it closes.`,
      withoutConfirmation(ctx, confirm, result.replayed, reserved),
      moneyLine(balance),
      q.linkUrl ? `Answer link to share: ${q.linkUrl}` : null,
      `Next: call wait_for_result with questionId "${q.id}".`,
    ].filter(Boolean).join('\n');
    return reply(text, { confirmationRequired: false, replayed: result.replayed, creditsReserved: reserved, question: { ...q }, balance: moneyJson(balance) });
  }));
}
