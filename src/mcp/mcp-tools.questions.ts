import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { validationError } from '../lib/errors.ts';
import { ListQuestionsQuerySchema } from '../modules/questions/questions.schemas.ts';
import type { ToolContext } from './mcp-deps.ts';
import { guard, toolError } from './mcp-errors.ts';
import { balanceFor, moneyJson, moneyLine, questionLine, reply } from './mcp-results.ts';
import { QuestionIdArg, given, restCheck, zodFields } from './mcp-schemas.ts';

/** list_questions, get_question and cancel_question: GET /v2/questions, GET /v2/questions/{id}, POST …/cancel. */
const checkList = restCheck(ListQuestionsQuerySchema);
const LIST_INPUT = zodFields(ListQuestionsQuerySchema);
const QuestionOut = z.looseObject({ question: z.looseObject({ id: z.string(), status: z.string() }) });

export function registerQuestionTools(server: McpServer, ctx: ToolContext): void {
  server.registerTool('list_questions', {
    title: 'List questions',
    description: 'Questions of this account, newest first, with their status and answers so far. Filter by status, label, project, externalRef or date; pass nextCursor back as cursor for the next page.',
    inputSchema: LIST_INPUT,
    outputSchema: z.looseObject({ questions: z.array(z.looseObject({ id: z.string() })), nextCursor: z.string().nullable() }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  }, async (args) => guard(ctx, 'list_questions', 'questions:read', async () => {
    const query = checkList(given(args));
    if (!query.ok) return toolError(validationError(query.items), ctx, 'list_questions');
    const page = await ctx.deps.questions.list(ctx.actor, query.value);
    const lines = page.questions.map((q) => `- ${questionLine(q)}`);
    const text = [
      page.questions.length ? `${page.questions.length} question${page.questions.length === 1 ? '' : 's'}, newest first:` : 'No questions match.',
      ...lines,
      page.nextCursor ? `More: call list_questions again with cursor "${page.nextCursor}".` : null,
    ].filter(Boolean).join('\n');
    return reply(text, { questions: page.questions.map((q) => ({ ...q })), nextCursor: page.nextCursor });
  }));

  server.registerTool('get_question', {
    title: 'Get a question',
    description: 'One question of this account: its draft, status, answers so far and money (reserved and spent).',
    inputSchema: { questionId: QuestionIdArg },
    outputSchema: QuestionOut,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  }, async ({ questionId }) => guard(ctx, 'get_question', 'questions:read', async () => {
    const q = await ctx.deps.questions.get(ctx.actor, questionId);
    const text = [questionLine(q), q.linkUrl ? `Answer link: ${q.linkUrl}` : null, 'get_result shows the split of the answers.'].filter(Boolean).join('\n');
    return reply(text, { question: { ...q } });
  }));

  server.registerTool('cancel_question', {
    title: 'Cancel a question',
    description:
      'Cancels a live or scheduled question (or a follow-up still waiting for its parent): no more answers are taken, and the credits of answers not given come back at once. Answers already given stay and are paid for. This cannot be undone.',
    inputSchema: { questionId: QuestionIdArg },
    outputSchema: z.looseObject({ question: z.looseObject({ id: z.string(), status: z.string() }), refundCredits: z.number(), balance: z.looseObject({}).nullable() }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  }, async ({ questionId }) => guard(ctx, 'cancel_question', 'questions:write', async () => {
    const { question, refundCredits } = await ctx.deps.lifecycle.cancel(ctx.actor, questionId);
    const balance = await balanceFor(ctx);
    const text = [
      `Cancelled ${question.id}: ${question.answered} of ${question.n} answers were given (${question.creditsSpent} credits spent).`,
      `Refunded ${refundCredits} credits for the answers not given.`,
      moneyLine(balance),
    ].join('\n');
    return reply(text, { question: { ...question }, refundCredits, balance: moneyJson(balance) });
  }));
}
