import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { validationError } from '../lib/errors.ts';
import { RESULT_FIELDS, ResultQuerySchema } from '../modules/results/results.schemas.ts';
import { pickFields } from '../modules/results/result-fields.ts';
import type { ToolContext } from './mcp-deps.ts';
import { guard, toolError } from './mcp-errors.ts';
import { reply, resultText } from './mcp-results.ts';
import { QuestionIdArg, given, restCheck, zodFields } from './mcp-schemas.ts';
import { DEFAULT_TOOL_WAIT_SECONDS, MAX_WAIT_SECONDS, waitWithProgress } from './mcp-wait.ts';

/** wait_for_result, get_result and get_insights: the wait, result and insights routes of /v2/questions/{id}. */
const checkFilter = restCheck(ResultQuerySchema);
const RESULT_INPUT = { questionId: QuestionIdArg, ...zodFields(ResultQuerySchema) };
const ResultOut = z.looseObject({ result: z.looseObject({ questionId: z.string(), status: z.string(), nAccepted: z.number(), nRequested: z.number() }) });
/** What get_result's structuredContent always has, whatever `fields` names (ResultOut needs them). */
const ALWAYS: readonly string[] = ['questionId', 'status', 'nAccepted', 'nRequested'];
const FieldsArg = z
  .array(z.enum(RESULT_FIELDS as [string, ...string[]]))
  .min(1)
  .optional()
  .describe(
    'Optional. Only these Result properties in structuredContent (questionId, status, nAccepted and nRequested always come), e.g. ["distribution", "summary"]: ' +
      'a smaller reply when the answers, breakdowns and facets are not needed. Omit for the full Result.',
  );

export function registerResultTools(server: McpServer, ctx: ToolContext): void {
  server.registerTool('wait_for_result', {
    title: 'Wait for answers',
    description:
      `Waits up to timeoutSeconds (default ${DEFAULT_TOOL_WAIT_SECONDS}, at most ${MAX_WAIT_SECONDS}) for the question to close, reporting progress ("7 of 20 answers") as answers arrive, ` +
      'then returns the result so far with done true or false. While done is false, call it again to keep waiting.',
    inputSchema: {
      questionId: QuestionIdArg,
      timeoutSeconds: z.number().int().min(1).max(MAX_WAIT_SECONDS).optional().describe(`How long to wait at most, in seconds (1 to ${MAX_WAIT_SECONDS}; default ${DEFAULT_TOOL_WAIT_SECONDS}).`),
    },
    outputSchema: ResultOut.extend({ done: z.boolean() }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  }, async ({ questionId, timeoutSeconds }, extra) => guard(ctx, 'wait_for_result', 'questions:read', async () => {
    const token = extra._meta?.progressToken;
    const progress = async (answered: number, wanted: number) => {
      if (token === undefined) return;
      // A client that went away cannot be told; the wait still ends on time.
      await extra
        .sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: answered, total: wanted, message: `${answered} of ${wanted} answers` } })
        .catch(() => undefined);
    };
    const { result, done } = await waitWithProgress(ctx, questionId, timeoutSeconds ?? DEFAULT_TOOL_WAIT_SECONDS, progress, extra.signal);
    const next = done
      ? 'Done: this is the final result.'
      : `Not done yet (${result.nAccepted} of ${result.nRequested} answers). To keep waiting, call wait_for_result again with questionId "${questionId}".`;
    return reply(`${resultText(result)}\n${next}`, { result: { ...result }, done });
  }));

  server.registerTool('get_result', {
    title: 'Get the result',
    description:
      'The result of a question now (partial while it is live): the split per option with 95% intervals, summary, breakdowns and latest answers. ' +
      'Optional filters show only matching answers (a country or age band with fewer than 5 answers is suppressed); optional fields keeps only the Result properties named.',
    inputSchema: { ...RESULT_INPUT, fields: FieldsArg },
    outputSchema: ResultOut,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  }, async ({ questionId, fields, ...filters }) => guard(ctx, 'get_result', 'questions:read', async () => {
    const query = checkFilter(given(filters));
    if (!query.ok) return toolError(validationError(query.items), ctx, 'get_result');
    const result = await ctx.deps.results.forAccount(ctx.actor.accountId, questionId, query.value);
    const shown = fields ? pickFields(result, RESULT_FIELDS.filter((name) => ALWAYS.includes(name) || fields.includes(name))) : result;
    return reply(resultText(result), { result: { ...shown } });
  }));

  server.registerTool('get_insights', {
    title: 'Summary of written answers',
    description:
      'The latest machine summary of the written answers (takeaway, themes with quotes, sentiment), or none yet. ' +
      'refresh: true makes a fresh one now (needs three written answers; while the question is live, at most once every 10 minutes; after it closed, its final summary).',
    inputSchema: {
      questionId: QuestionIdArg,
      refresh: z.boolean().optional().describe('Make a fresh summary now instead of reading the latest one.'),
    },
    outputSchema: z.looseObject({ insights: z.looseObject({}).nullable() }),
    // Not read-only: refresh stores a new summary. It spends nothing and changes no question.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  }, async ({ questionId, refresh }) => guard(ctx, 'get_insights', 'questions:read', async () => {
    const insights = refresh ? await ctx.deps.insights.refresh(ctx.actor, questionId) : await ctx.deps.insights.get(ctx.actor, questionId);
    if (!insights) {
      return reply(`No summary of ${questionId} yet. One is made when the question closes; call get_insights with refresh: true to make one now (needs three written answers).`, { insights: null });
    }
    const themes = insights.themes.map((t) => `- ${t.label}: ${t.count} (${Math.round(t.share * 100)}%, ${t.sentiment})${t.quotes[0] ? `, e.g. "${t.quotes[0]}"` : ''}`);
    const text = [
      `${insights.kind === 'final' ? 'Final' : 'Interim'} summary of ${insights.basedOn} written answers: ${insights.takeaway}`,
      ...themes,
      `Sentiment: ${insights.sentiment.positive} positive, ${insights.sentiment.neutral} neutral, ${insights.sentiment.negative} negative.`,
    ].join('\n');
    return reply(text, { insights: { ...insights } });
  }));
}
