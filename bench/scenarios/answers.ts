import type { AnswersWorkload } from '../lib/protocol.ts';
import type { InAppScenario } from './types.ts';

/**
 * The answer path, container.answers.record, in a closed loop inside the app child (a panel
 * head's answer has no HTTP route; anonymous answers through a link do: links.ts): per answer, one transaction that locks the question row, checks
 * the head (targeting, earlier answers in the variant group), inserts the answer, moves the
 * question's count and tally and the account's reserved credits; after commit, waiters are told.
 * Single-choice questions with n = 5000 from a panel topped up to 20,000 heads; each answer comes
 * from a head that has not answered that question.
 *
 * Three rows, because the answer path has two serialisation points: the question row (locked for
 * the whole transaction) and the account's balance row (updated by every answer). Spread: 20 live
 * questions of one account. Hot: one question, everyone answering it (a question that goes
 * viral). Accounts: 20 questions of 20 accounts, so no two concurrent answers share either row.
 */
const N = 5000;
const HEADS = 20_000;

function answers(id: string, title: string, workload: Omit<AnswersWorkload, 'id' | 'n' | 'heads'>): InAppScenario {
  return {
    kind: 'in-app',
    id,
    title,
    target: 'app',
    request: `answers.record · ${workload.questions} question${workload.questions > 1 ? 's' : ''}, ${workload.accounts} account${workload.accounts > 1 ? 's' : ''}`,
    async prepare(app) {
      return app.call('answers.prepare', { id, n: N, heads: HEADS, ...workload }, 300_000);
    },
    run: (app, settings) => app.call('answers.run', { id, ...settings }, (settings.seconds + 60) * 1000),
    insertBaseline: true,
  };
}

export const answersSpread = answers('answers', 'record answers, 20 live questions of one account', { questions: 20, accounts: 1 });
export const answersHot = answers('answers-hot', 'record answers, all to one question', { questions: 1, accounts: 1 });
export const answersAccounts = answers('answers-20-accounts', 'record answers, 20 questions of 20 accounts', { questions: 20, accounts: 20 });
