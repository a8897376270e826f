import { validationError } from '../lib/errors.ts';
import { integer, required, type AdminCommand } from './cli-values.ts';
import { audienceCommands } from './audience-commands.ts';
import { backupCommands } from './backup-commands.ts';
import { isTicketStatus } from '../modules/support/support.schemas.ts';
import { QUEUE_LIMIT } from '../modules/support/support.service.ts';

export type { AdminCommand } from './cli-values.ts';
export { serviceCommand } from './cli-values.ts';

/** Every admin command; README.md lists them for operators. */
export const adminCommands: Record<string, AdminCommand> = {
  'account:create': {
    usage: '--name NAME [--kind person|team] [--currency GBP|USD|EUR|CAD] [--language en]',
    summary: 'Create an account (a person\'s or a team\'s).',
    options: {
      name: { type: 'string', value: 'NAME', description: 'the account name (required)' },
      kind: { type: 'string', value: 'KIND', description: "person (default) or team" },
      currency: { type: 'string', value: 'CODE', description: 'GBP (default), USD, EUR or CAD' },
      language: { type: 'string', value: 'TAG', description: 'language of the account (default en)' },
    },
    async run(c, v) {
      const account = await c.accounts.createAccount({
        name: required(v, 'name'),
        kind: v.kind as 'person' | 'team' | undefined,
        currency: v.currency as string | undefined,
        language: v.language as string | undefined,
      });
      return { account };
    },
  },
  'key:create': {
    usage: '--account ID --scopes a,b,c [--cap N] [--name TEXT] [--test]',
    summary: 'Create an API key; the secret is printed once and never stored.',
    options: {
      account: { type: 'string', value: 'ID', description: 'the account the key belongs to (required)' },
      scopes: { type: 'string', value: 'a,b,c', description: 'comma-separated scopes: questions:read, questions:write, templates:read, account:read (required)' },
      cap: { type: 'string', value: 'N', description: 'daily spend cap in credits (default none)' },
      name: { type: 'string', value: 'TEXT', description: 'a name to tell the key apart' },
      test: { type: 'boolean', description: 'make a test key (hc_test_…) instead of a live one' },
    },
    async run(c, v) {
      const { key, secret } = await c.accounts.createKey({
        accountId: required(v, 'account'),
        scopes: required(v, 'scopes').split(',').map((s) => s.trim()).filter(Boolean),
        dailyCapCredits: integer(v.cap, 'cap'),
        name: (v.name as string | undefined) ?? null,
        mode: v.test ? 'test' : 'live',
      });
      return { key, secret, note: 'Store the secret now: it is shown only this once.' };
    },
  },
  'key:revoke': {
    usage: '--key ID',
    summary: 'Revoke a key; it fails from the next request on.',
    options: { key: { type: 'string', value: 'ID', description: 'the key to revoke (key_…, required)' } },
    async run(c, v) {
      return { key: await c.accounts.revokeKey(required(v, 'key')) };
    },
  },
  'credits:grant': {
    usage: '--account ID --amount N --reason TEXT [--kind bonus|adjustment] [--expires-days D]',
    summary: 'Add credits (a bonus row) or correct them (an adjustment row, N may be negative).',
    options: {
      account: { type: 'string', value: 'ID', description: 'the account to credit (required)' },
      amount: { type: 'string', value: 'N', description: 'whole credits; negative takes credits away (required)' },
      reason: { type: 'string', value: 'TEXT', description: 'why, shown on the ledger row (required)' },
      kind: { type: 'string', value: 'KIND', description: 'bonus or adjustment (default: bonus, adjustment when N is negative)' },
      'expires-days': { type: 'string', value: 'D', description: 'the credits expire after D days (default never)' },
    },
    async run(c, v) {
      const raw = required(v, 'amount');
      if (!/^-?\d+$/.test(raw)) throw validationError([{ field: 'amount', code: 'invalid_format', message: '--amount must be a whole number of credits.' }]);
      const kind = v.kind as string | undefined;
      if (kind !== undefined && kind !== 'bonus' && kind !== 'adjustment') throw validationError([{ field: 'kind', code: 'unknown_value', message: '--kind must be bonus or adjustment.' }]);
      const result = await c.credits.grant({
        accountId: required(v, 'account'),
        amount: Number(raw),
        reason: required(v, 'reason'),
        kind,
        expiresInDays: integer(v['expires-days'], 'expires-days'),
      });
      return result;
    },
  },
  'question:refuse': {
    usage: '--id QUESTION_ID --category TEXT',
    summary: 'Refuse a question in review (e.g. --category personal_data); what is left of its credits is refunded.',
    options: {
      id: { type: 'string', value: 'ID', description: 'the question (q_…, required)' },
      category: { type: 'string', value: 'TEXT', description: 'why it is refused, a snake_case word such as personal_data (required)' },
    },
    async run(c, v) {
      const category = required(v, 'category');
      if (!/^[a-z][a-z0-9_]{1,39}$/.test(category)) {
        throw validationError([{ field: 'category', code: 'invalid_format', message: '--category must be a short snake_case word such as personal_data.' }]);
      }
      return { question: await c.lifecycle.refuse(required(v, 'id'), category) };
    },
  },
  'credits:reconcile': {
    usage: '',
    summary: 'Recompute every balance from ledger rows, lots and question holds; lists any account that disagrees.',
    options: {},
    async run(c) {
      const problems = await c.credits.reconcile();
      return { ok: problems.length === 0, problems };
    },
  },
  'key:list': {
    usage: '--account ID',
    summary: "List an account's keys (never their secrets).",
    options: { account: { type: 'string', value: 'ID', description: 'the account whose keys to list (required)' } },
    async run(c, v) {
      return { keys: await c.accounts.listKeys(required(v, 'account')) };
    },
  },
  'flag:list': {
    usage: '[--status open|upheld|dismissed] [--question QUESTION_ID]',
    summary: 'List answer flags for review, oldest first (docs/moderation.md).',
    options: {
      status: { type: 'string', value: 'STATUS', description: 'only flags in this state: open, upheld or dismissed' },
      question: { type: 'string', value: 'ID', description: 'only flags on this question (q_…)' },
    },
    async run(c, v) {
      const status = v.status as string | undefined;
      if (status !== undefined && !['open', 'upheld', 'dismissed'].includes(status)) {
        throw validationError([{ field: 'status', code: 'unknown_value', message: '--status must be open, upheld or dismissed.' }]);
      }
      return { flags: await c.moderation.listFlags({ status, questionId: v.question as string | undefined }) };
    },
  },
  'flag:decide': {
    usage: '--id FLAG_ID --uphold|--dismiss',
    summary: 'Decide a flag: --uphold removes the answer from results and refunds its credits; --dismiss changes nothing.',
    options: {
      id: { type: 'string', value: 'ID', description: 'the flag to decide (required)' },
      uphold: { type: 'boolean', description: 'remove the answer from results and refund its credits' },
      dismiss: { type: 'boolean', description: 'keep the answer; nothing changes' },
    },
    async run(c, v) {
      if (Boolean(v.uphold) === Boolean(v.dismiss)) throw validationError([{ field: 'uphold', code: 'required', message: 'Give exactly one of --uphold and --dismiss.' }]);
      return c.moderation.decideFlag(required(v, 'id'), v.uphold ? 'uphold' : 'dismiss');
    },
  },
  'dispute:list': {
    usage: '[--status open|upheld|rejected] [--account ID]',
    summary: 'List disputes, oldest first (docs/moderation.md).',
    options: {
      status: { type: 'string', value: 'STATUS', description: 'only disputes in this state: open, upheld or rejected' },
      account: { type: 'string', value: 'ID', description: "only this account's disputes" },
    },
    async run(c, v) {
      const status = v.status as string | undefined;
      if (status !== undefined && !['open', 'upheld', 'rejected'].includes(status)) {
        throw validationError([{ field: 'status', code: 'unknown_value', message: '--status must be open, upheld or rejected.' }]);
      }
      return { disputes: await c.moderation.listDisputes({ status, accountId: v.account as string | undefined }) };
    },
  },
  'dispute:decide': {
    usage: '--id DISPUTE_ID --uphold|--reject [--refund N] --note TEXT',
    summary: 'Decide a dispute and send dispute.resolved; --refund (upheld only) gives back up to what the question spent.',
    options: {
      id: { type: 'string', value: 'ID', description: 'the dispute to decide (required)' },
      uphold: { type: 'boolean', description: 'the requester is right' },
      reject: { type: 'boolean', description: 'the result stands' },
      refund: { type: 'string', value: 'N', description: 'credits to give back with --uphold, up to what the question spent' },
      note: { type: 'string', value: 'TEXT', description: 'the decision in words, sent with dispute.resolved (required)' },
    },
    async run(c, v) {
      if (Boolean(v.uphold) === Boolean(v.reject)) throw validationError([{ field: 'uphold', code: 'required', message: 'Give exactly one of --uphold and --reject.' }]);
      return c.moderation.decideDispute(required(v, 'id'), { outcome: v.uphold ? 'upheld' : 'rejected', refund: integer(v.refund, 'refund'), note: required(v, 'note') });
    },
  },
  'ticket:list': {
    usage: '[--status open|answered|closed] [--limit N]',
    summary: 'List support tickets with their messages, newest first; posts dropped as spam are never listed (docs/support.md).',
    options: {
      status: { type: 'string', value: 'STATUS', description: 'only tickets in this state: open, answered or closed' },
      limit: { type: 'string', value: 'N', description: `how many, 1 to ${QUEUE_LIMIT.max} (default ${QUEUE_LIMIT.default})` },
    },
    async run(c, v) {
      const status = v.status as string | undefined;
      if (status !== undefined && !isTicketStatus(status)) {
        throw validationError([{ field: 'status', code: 'unknown_value', message: '--status must be open, answered or closed.' }]);
      }
      return { tickets: await c.support.list({ status, limit: integer(v.limit, 'limit') ?? undefined }) };
    },
  },
  'ticket:reply': {
    usage: '--id TICKET_ID --body TEXT',
    summary: "Reply to a support ticket: the reply is stored, the ticket becomes answered, and the reply is emailed to the ticket's address in its language.",
    options: {
      id: { type: 'string', value: 'ID', description: 'the ticket (tkt_…, required)' },
      body: { type: 'string', value: 'TEXT', description: 'the reply, up to 5000 characters (required)' },
    },
    async run(c, v) {
      return c.support.reply(required(v, 'id'), required(v, 'body'));
    },
  },
  ...audienceCommands,
  ...backupCommands,
};
