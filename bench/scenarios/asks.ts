import { randomUUID } from 'node:crypto';
import type { RunningServer } from '../lib/child.ts';
import { isObject, type RequestSetup, type Scenario } from './types.ts';

/**
 * POST /v2/questions: the ask, over HTTP, each request with a fresh Idempotency-Key (so every one
 * is a real ask: validate, price, pool count (cached), then one transaction that claims the key,
 * reserves the credits, writes the question, its ledger row and its event; after commit the
 * close timer goes to the job queue and waiters are told). The account gets far more credits
 * than a run can spend, granted through the container in the app child.
 *
 * Two rows: all asks from one account (every ask locks that account's balance row and credit
 * lot, so asks of one account queue behind each other), and the same load spread over 20
 * accounts, which shows what that per-account lock costs.
 */
const PATH = '/v2/questions';
/** single_choice, 2 options, n = 10: 120 credits at tier 1. */
export const ASK_DRAFT = { type: 'single_choice', text: 'Which name is best for a savings app?', options: [{ label: 'Penny' }, { label: 'Pocket' }], n: 10 };
/** Enough for ~8 million asks of 120 credits per account. */
const CREDITS = 1_000_000_000;

function checkAsk(body: unknown): string[] {
  if (!isObject(body) || !isObject(body.question)) return ['expected {"question": {...}}'];
  const q = body.question;
  const problems: string[] = [];
  if (typeof q.id !== 'string') problems.push('question.id is not a string');
  if (q.status !== 'live') problems.push(`question.status is ${JSON.stringify(q.status)}, expected "live"`);
  return problems;
}

async function keys(app: RunningServer, accounts: number): Promise<RequestSetup> {
  const { secrets } = await app.call('accounts.create', { accounts, credits: CREDITS });
  let next = 0;
  return {
    headers: () => ({ authorization: `Bearer ${secrets[next++ % secrets.length]}`, 'idempotency-key': randomUUID() }),
    facts: { accounts, creditsEach: CREDITS },
  };
}

export const asks: Scenario = {
  id: 'asks',
  title: 'POST ask, fresh Idempotency-Key, one account',
  target: 'app',
  method: 'POST',
  path: PATH,
  bodies: [{ draft: ASK_DRAFT }],
  status: 201,
  prepare: (app) => keys(app, 1),
  insertBaseline: true,
  askRowsBaseline: { accounts: 1 },
  check: checkAsk,
};

export const asksSpread: Scenario = {
  id: 'asks-20-accounts',
  title: 'POST ask, fresh Idempotency-Key, 20 accounts in turn',
  target: 'app',
  method: 'POST',
  path: PATH,
  bodies: [{ draft: ASK_DRAFT }],
  status: 201,
  prepare: (app) => keys(app, 20),
  insertBaseline: true,
  askRowsBaseline: { accounts: 20 },
  check: checkAsk,
};
