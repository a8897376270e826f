import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestKey } from '../helpers/test-app.ts';
import { createListeningApp } from '../helpers/http-browser.ts';
import { answerAll, ask, balanceOf, choiceDraft, fundedKey, getQuestion, NO_RATE_LIMITS, seedHeads, sleep, type Head } from '../helpers/questions.ts';
import { cliHome, closedPort, ensureBuilt, runCli, startCli, type CliHome } from './headcount-cli-helpers.ts';

/**
 * Issue 16 point 2: the built `headcount` command run as a subprocess against the service
 * listening on 127.0.0.1, each test reading what a person (stdout, stderr) or a script (--json,
 * the exit code) reads. Answers come from the panel helpers while the command waits.
 */
let t: TestApp & { baseUrl: string };
let heads: Head[];
let owner: TestKey;
let home: CliHome;
let env: (extra?: Record<string, string>) => Record<string, string>;

const CHOICE = ['--type', 'single_choice', '--text', 'Which name is best for a savings app?', '--option', 'Penny', '--option', 'Pocket', '--n', '10'];

beforeAll(async () => {
  await ensureBuilt();
  t = await createListeningApp({ env: { ...NO_RATE_LIMITS } });
  heads = await seedHeads(t, 60);
  owner = await fundedKey(t, 10_000);
  home = await cliHome(t.baseUrl);
  env = home.env;
});
afterAll(async () => {
  await home?.dispose();
  await t?.close();
});

const json = (text: string) => JSON.parse(text) as Record<string, any>;
const api = async (url: string, key: TestKey = owner) => {
  const response = await t.inject({ method: 'GET', url, headers: key.auth });
  expect(response.statusCode, response.body).toBe(200);
  return response;
};

describe('login --key, whoami, logout', () => {
  it('a key the service refuses is not saved (exit 3)', async () => {
    const bad = await runCli(['login', '--key', `hc_live_${'x'.repeat(49)}`], env());
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/^Error: unauthorized: The service refused this key/m);
    await expect(stat(path.join(home.configHome, 'headcount/credentials.json'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a good key is checked, then saved 0600 under its base URL', async () => {
    const login = await runCli(['login', '--key', owner.secret], env());
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toMatch(/^Saved API key hc_live_\w{6}…\w{4} for http:\/\/127\.0\.0\.1:\d+\.$/m);
    expect(login.stdout).toContain('10,000 credits available.');
    const file = path.join(home.configHome, 'headcount/credentials.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(json(await readFile(file, 'utf8')).credentials[t.baseUrl]).toMatchObject({ type: 'api_key', apiKey: owner.secret });
  });

  it('whoami names the credential (masked) and checks it with a call', async () => {
    const who = await runCli(['whoami'], env());
    expect(who.code, who.stderr).toBe(0);
    expect(who.stdout).toContain(`${t.baseUrl}: API key hc_live_`);
    expect(who.stdout).not.toContain(owner.secret);
    expect(who.stdout).toContain('credits available (GBP)');
    // Which account the key acts for: the one it was made in.
    const account = await t.db.selectFrom('accounts').select(['id', 'name', 'kind']).where('id', '=', owner.accountId).executeTakeFirstOrThrow();
    expect(who.stdout).toContain(`Acts for ${account.kind === 'team' ? 'the team' : 'the personal account'} "${account.name}" (${account.id}).`);
    const asJson = json((await runCli(['whoami', '--json'], env())).stdout);
    expect(asJson).toMatchObject({ baseUrl: t.baseUrl, credential: 'api_key', balance: { credits: 10_000, account: { id: owner.accountId } } });
  });

  it('HEADCOUNT_API_KEY wins over the saved key, and --base-url over HEADCOUNT_BASE_URL', async () => {
    const other = await fundedKey(t, 77);
    const balance = json((await runCli(['balance', '--json'], env({ HEADCOUNT_API_KEY: other.secret }))).stdout);
    expect(balance.credits).toBe(77);
    const port = await closedPort();
    const viaFlag = await runCli(['balance', '--json', '--base-url', t.baseUrl], env({ HEADCOUNT_BASE_URL: `http://127.0.0.1:${port}`, HEADCOUNT_API_KEY: other.secret }));
    expect(viaFlag.code, viaFlag.stderr).toBe(0);
  });

  it('logout forgets the key; then every command says to log in (exit 3); login again', async () => {
    const out = await runCli(['logout'], env());
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^Forgot API key hc_live_.* still works until it is revoked/m);
    const after = await runCli(['list'], env());
    expect(after.code).toBe(3);
    expect(after.stderr).toContain('Not signed in to http://127.0.0.1:');
    const afterJson = await runCli(['list', '--json'], env());
    expect(json(afterJson.stdout)).toEqual({ error: { code: 'unauthorized', message: expect.stringContaining('Not signed in') } });
    expect((await runCli(['whoami'], env())).code).toBe(3);
    expect((await runCli(['login', '--key', '-'], env(), `${owner.secret}\n`)).code).toBe(0);
  });
});

describe('estimate and ask', () => {
  it("estimate --json prints the API's estimate; without it, the price for people; nothing spent", async () => {
    const estimate = await runCli(['estimate', ...CHOICE, '--json'], env());
    expect(estimate.code, estimate.stderr).toBe(0);
    const fromApi = await t.inject({ method: 'POST', url: '/v1/billing/estimate', payload: { draft: choiceDraft() } });
    expect(json(estimate.stdout)).toEqual(fromApi.json());
    const human = await runCli(['estimate', ...CHOICE], env());
    expect(human.stdout).toContain(`Price: ${fromApi.json().creditsTotal} credits (10 answers × ${fromApi.json().creditsPerAnswer} credits).`);
    expect(human.stdout).toContain('The draft can be asked as it is');
    expect(human.stdout).toContain('Nothing was spent.');
  });

  it('an estimate of a draft that breaks a rule lists every problem and exits 1; works with no credential at all', async () => {
    const broken = await runCli(['estimate', '--type', 'single_choice', '--text', 'Only one?', '--option', 'A', '--n', '10'], env({ XDG_CONFIG_HOME: path.join(home.dir, 'nobody') }));
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain('This draft cannot be asked yet:');
    expect(broken.stdout).toMatch(/ {2}- draft\.options: .*\(too_few\)/);
  });

  it('ask --json: one JSON document, the question as the API returns it; the price is reserved', async () => {
    const before = await balanceOf(t, owner);
    const asked = await runCli(['ask', ...CHOICE, '--label', 'cli', '--json'], env());
    expect(asked.code, asked.stderr).toBe(0);
    const { question } = json(asked.stdout);
    expect(question).toMatchObject({ type: 'single_choice', status: 'live', n: 10, labels: ['cli'], options: [{ label: 'Penny' }, { label: 'Pocket' }], source: 'api' });
    expect(await getQuestion(t, owner, question.id)).toMatchObject({ id: question.id, status: 'live' });
    expect((await balanceOf(t, owner)).reserved).toBe(before.reserved + question.creditsReserved);
  });

  it('ask for people: what was asked and reserved, and how to follow it (on stderr)', async () => {
    const asked = await runCli(['ask', ...CHOICE], env());
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stdout).toMatch(/^Asked q_\w+: live, 0 of 10 answers, about \d+ min to answer\.$/m);
    expect(asked.stdout).toMatch(/^Reserved \d+ credits \(10 answers × \d+ credits\)/m);
    expect(asked.stderr).toMatch(/Follow it: headcount wait q_\w+/);
  });

  it('the same --idempotency-key asks once, however often it is run', async () => {
    const first = json((await runCli(['ask', ...CHOICE, '--idempotency-key', 'cli-test-key-1', '--json'], env())).stdout);
    const again = json((await runCli(['ask', ...CHOICE, '--idempotency-key', 'cli-test-key-1', '--json'], env())).stdout);
    expect(again.question.id).toBe(first.question.id);
  });

  it('--draft file.json and --draft - (stdin), with flags over them', async () => {
    const file = path.join(home.dir, 'draft.json');
    await writeFile(file, JSON.stringify({ draft: { type: 'scale_1_5', text: 'How clear is this pricing page?', n: 20 }, labels: ['from-file'] }));
    const fromFile = json((await runCli(['ask', '--draft', file, '--n', '10', '--json'], env())).stdout);
    expect(fromFile.question).toMatchObject({ type: 'scale_1_5', n: 10, labels: ['from-file'] });
    const fromStdin = await runCli(['estimate', '--draft', '-', '--json'], env(), JSON.stringify({ type: 'yes_mostly_no', text: 'Would you pay for it?', n: 10 }));
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    expect(json(fromStdin.stdout).validation).toEqual([]);
  });

  it('ask --wait: progress on stderr while heads answer, then the chart and the summary line', async () => {
    const running = startCli(['ask', ...CHOICE, '--wait', '--interval', '1'], env());
    const [, id] = await running.waitFor(/Asked (q_\w+)/);
    await running.waitFor(/0 of 10 answers/, 'stderr');
    await answerAll(t, id!, heads.slice(0, 4), { option: 0 });
    await running.waitFor(/4 of 10 answers \(40%\)/, 'stderr');
    await answerAll(t, id!, heads.slice(4, 8), (i) => ({ option: i % 4 === 3 ? 1 : 0 }));
    await answerAll(t, id!, heads.slice(8, 10), { option: 1 });
    const done = await running.done;
    expect(done.code, done.stderr).toBe(0);
    // Not a terminal: plain progress lines, no bar redrawn, no colour.
    expect(done.stderr).toMatch(/^4 of 10 answers \(40%\), /m);
    expect(done.stderr).toMatch(/^10 of 10 answers \(100%\), done$/m);
    expect(done.stdout).not.toContain('\u001b[');
    const lines = done.stdout.split('\n');
    expect(lines).toContain('Which name is best for a savings app?');
    expect(lines.find((line) => line.startsWith('  Penny '))).toMatch(/^ {2}Penny {3}█+[▏▎▍▌▋▊▉]?·*  70% {2}7 {2}\(\d+–\d+%\)$/);
    expect(lines.find((line) => line.startsWith('  Pocket '))).toMatch(/^ {2}Pocket {2}█+[▏▎▍▌▋▊▉]?·*  30% {2}3 {2}\(\d+–\d+%\)$/);
    const result = (await api(`/v2/questions/${id}/result`)).json().result;
    expect(lines).toContain(result.summary.note);
    expect(lines).toContain(`Complete · 10 of 10 answers · confidence ${result.summary.confidence} · ${result.creditsSpent} credits spent`);
  });

  it('ask --wait --json: only the final document on stdout, progress on stderr', async () => {
    const before = new Set((await t.db.selectFrom('questions').select('id').execute()).map((row) => row.id));
    const running = startCli(['ask', ...CHOICE, '--wait', '--interval', '1', '--json'], env());
    await running.waitFor(/0 of 10 answers/, 'stderr');
    // The question this run asked: the one that was not there before it.
    const [id] = (await t.db.selectFrom('questions').select('id').execute()).map((row) => row.id).filter((qid) => !before.has(qid));
    await answerAll(t, id!, heads.slice(0, 10), { option: 1 });
    const done = await running.done;
    expect(done.code, done.stderr).toBe(0);
    const document = json(done.stdout);
    expect(Object.keys(document).sort()).toEqual(['done', 'question', 'result']);
    expect(document).toMatchObject({ done: true, question: { id, status: 'live' }, result: { questionId: id, status: 'complete', nAccepted: 10 } });
    expect(done.stderr).toMatch(/10 of 10 answers/);
  });
});

describe('reading questions', () => {
  let closed: string;
  beforeAll(async () => {
    closed = (await ask(t, owner, choiceDraft())).id;
    await answerAll(t, closed, heads.slice(20, 30), (i) => ({ option: i < 6 ? 0 : 1 }));
  });

  it('result <id>: the chart; --json: the API document', async () => {
    const shown = await runCli(['result', closed], env());
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^ {2}Penny {3}█+.* 60% {2}6 {2}\(\d+–\d+%\)$/m);
    expect(shown.stdout).toMatch(/^Complete · 10 of 10 answers/m);
    const asJson = await runCli(['result', closed, '--json'], env());
    expect(json(asJson.stdout)).toEqual((await api(`/v2/questions/${closed}/result`)).json());
  });

  it('result with a filter', async () => {
    const filtered = json((await runCli(['result', closed, '--option-index', '1', '--json'], env())).stdout);
    expect(filtered.result).toMatchObject({ nAccepted: 4, filter: { option: 1 } });
  });

  it('answers <id>: a table, newest first, --limit; --json: the page as served', async () => {
    const table = await runCli(['answers', closed, '--limit', '3'], env());
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ANSWERED +TIER +ANSWER +REF$/);
    expect(lines).toHaveLength(4);
    expect(lines.slice(1).every((line) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2} +\d +(Penny|Pocket) +\S+$/.test(line))).toBe(true);
    expect(table.stderr).toMatch(/3 of 10 answers; more: headcount answers q_\w+ --cursor \S+/);
    const page = json((await runCli(['answers', closed, '--limit', '3', '--json'], env())).stdout);
    expect(page).toEqual((await api(`/v2/questions/${closed}/answers?limit=3`)).json());
    const all = json((await runCli(['answers', closed, '--limit', '300', '--json'], env())).stdout);
    expect(all.answers).toHaveLength(10);
  });

  it('list: a table of questions; --json: the page as served', async () => {
    const listed = await runCli(['list', '--limit', '5'], env());
    expect(listed.code, listed.stderr).toBe(0);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +STATUS +ANSWERS +TYPE +CREATED +QUESTION$/);
    expect(lines).toHaveLength(6);
    expect(listed.stdout).toMatch(new RegExp(`^${closed} +complete +10/10 +single_choice +\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} +Which name is best for a savings app\\?$`, 'm'));
    expect(listed.stderr).toMatch(/More: headcount list --cursor \S+/);
    expect(json((await runCli(['list', '--limit', '5', '--json'], env())).stdout)).toEqual((await api('/v2/questions?limit=5')).json());
    const complete = json((await runCli(['list', '--status', 'complete', '--json'], env())).stdout);
    expect(complete.questions.every((q: { status: string }) => q.status === 'complete')).toBe(true);
  });

  it('cancel <id>: what was given and what came back', async () => {
    const live = await ask(t, owner, choiceDraft());
    await answerAll(t, live.id, heads.slice(40, 42));
    const cancelled = await runCli(['cancel', live.id], env());
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toBe(`Cancelled ${live.id}: 2 of 10 answers were given (${2 * live.creditsPerAnswer} credits spent).\nRefunded ${8 * live.creditsPerAnswer} credits.\n`);
    expect((await getQuestion(t, owner, live.id)).status).toBe('cancelled');
    const again = await runCli(['cancel', live.id, '--json'], env());
    expect(again.code).toBe(1);
    expect(json(again.stdout).error.code).toBe('conflict');
    expect(again.stderr).toMatch(/^Error: conflict: .* \(request \S+\)$/m);
  });

  it('export: the bytes the API serves, written to the file; never over a file without --force', async () => {
    const csv = path.join(home.dir, 'answers.csv');
    const written = await runCli(['export', closed, '--format', 'csv', '--output', csv], env());
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toMatch(/^Wrote .*answers\.csv \(\d[\d,]* bytes, text\/csv\)\.$/m);
    const served = (await api(`/v2/questions/${closed}/export.csv`)).rawPayload;
    expect(Buffer.compare(await readFile(csv), served)).toBe(0);

    await writeFile(csv, 'mine');
    const refused = await runCli(['export', closed, '--format', 'csv', '--output', csv], env());
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('exists; pass --force to overwrite it.');
    expect(await readFile(csv, 'utf8')).toBe('mine');
    expect((await runCli(['export', closed, '--format', 'csv', '--output', csv, '--force'], env())).code).toBe(0);
    expect(Buffer.compare(await readFile(csv), served)).toBe(0);

    const png = path.join(home.dir, 'chart.png');
    const pngRun = await runCli(['export', closed, '--format', 'png', '--size', 'wide', '-o', png, '--json'], env());
    expect(pngRun.code, pngRun.stderr).toBe(0);
    expect(json(pngRun.stdout)).toMatchObject({ questionId: closed, format: 'png', path: png, contentType: 'image/png' });
    expect(Buffer.compare(await readFile(png), (await api(`/v2/questions/${closed}/export.png?size=wide`)).rawPayload)).toBe(0);

    // Without --output: the name the service gives it, in the working directory.
    const pdf = await runCli(['export', closed, '--format', 'pdf'], env());
    expect(pdf.code, pdf.stderr).toBe(0);
    const name = /^Wrote (.+) \(/m.exec(pdf.stdout)![1]!;
    expect(name).toMatch(/\.pdf$/);
    expect((await readFile(path.join(home.dir, name))).subarray(0, 5).toString()).toBe('%PDF-');
  });
});

describe('credits', () => {
  it("balance: for people, and the API's JSON", async () => {
    const shown = await runCli(['balance'], env());
    expect(shown.code, shown.stderr).toBe(0);
    const balance = await balanceOf(t, owner);
    expect(shown.stdout).toContain(`${(balance.credits - balance.reserved).toLocaleString('en-US')} credits available to spend (balance ${balance.credits.toLocaleString('en-US')} GBP credits, of which ${balance.reserved.toLocaleString('en-US')} reserved by open questions).`);
    expect(shown.stdout).toContain('No daily spend cap on this credential.');
    expect(json((await runCli(['balance', '--json'], env())).stdout)).toEqual(balance);
  });

  it('ledger: newest first, --limit; --json: rows and the cursor', async () => {
    const shown = await runCli(['ledger', '--limit', '4'], env());
    expect(shown.code, shown.stderr).toBe(0);
    const lines = shown.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^DATE +KIND +AMOUNT +STATE +TITLE +REF$/);
    expect(lines).toHaveLength(5);
    const served = (await api('/v1/billing/ledger')).json();
    const document = json((await runCli(['ledger', '--limit', '4', '--json'], env())).stdout);
    expect(document.rows).toEqual(served.rows.slice(0, 4));
    expect(lines[1]).toContain(served.rows[0].kind);
    const onePage = json((await runCli(['ledger', '--limit', '50', '--json'], env())).stdout);
    expect(onePage).toEqual(served);
  });
});

describe('exit codes', () => {
  it('2: an unknown flag, a bad value, a missing argument', async () => {
    const unknown = await runCli(['list', '--colour'], env());
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("error: unknown option '--colour'");
    expect((await runCli(['ask', '--type', 'single_choice', '--text', 'x', '--n', 'lots'], env())).code).toBe(2);
    expect((await runCli(['result'], env())).code).toBe(2);
    expect((await runCli(['ask', '--option', 'A'], env())).code).toBe(2);
    expect((await runCli([], env())).code).toBe(2);
    const help = await runCli(['--help'], env());
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Exit codes:');
  });

  it('3: a key the service refuses', async () => {
    const refused = await runCli(['balance'], env({ HEADCOUNT_API_KEY: `hc_live_${'y'.repeat(49)}` }));
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/^Error: unauthorized: .* \(request \S+\)$/m);
  });

  it('3: a key without the scope (403); it can still be saved, and whoami says what it cannot do', async () => {
    const reader = await t.makeKey(['questions:read']);
    const readerHome = await cliHome(t.baseUrl);
    try {
      const login = await runCli(['login', '--key', reader.secret], readerHome.env());
      expect(login.code, login.stderr).toBe(0);
      expect(login.stderr).toContain('This key cannot read the balance (it has no account:read scope).');
      const who = await runCli(['whoami'], readerHome.env());
      expect(who.code).toBe(0);
      expect(who.stdout).toContain('The credential works but cannot read the balance (no account:read scope).');
      const asked = await runCli(['ask', ...CHOICE], readerHome.env());
      expect(asked.code).toBe(3);
      expect(asked.stderr).toMatch(/^Error: insufficient_scope: .* \(request \S+\)$/m);
      expect((await runCli(['list'], readerHome.env())).code).toBe(0);
    } finally {
      await readerHome.dispose();
    }
  });

  it('4: not enough credits, with the code and the request id', async () => {
    const poor = await fundedKey(t, 0);
    const asked = await runCli(['ask', ...CHOICE], env({ HEADCOUNT_API_KEY: poor.secret }));
    expect(asked.code).toBe(4);
    expect(asked.stderr).toMatch(/^Error: insufficient_credits: .+ \(request [\w.:-]+\)$/m);
    expect(asked.stdout).toBe('');
  });

  it('5: the service cannot be reached', async () => {
    const port = await closedPort();
    const down = await runCli(['balance'], env({ HEADCOUNT_BASE_URL: `http://127.0.0.1:${port}`, HEADCOUNT_API_KEY: owner.secret }));
    expect(down.code).toBe(5);
    expect(down.stderr).toMatch(/^Error: network: .*ECONNREFUSED/m);
    // --json: still one document on stdout, of the API's error shape.
    const asJson = await runCli(['balance', '--json'], env({ HEADCOUNT_BASE_URL: `http://127.0.0.1:${port}`, HEADCOUNT_API_KEY: owner.secret, HEADCOUNT_MAX_RETRIES: '0' }));
    expect(asJson.code).toBe(5);
    expect(json(asJson.stdout).error.code).toBe('network_error');
  });

  it('1: anything else the API refuses (a question of no one)', async () => {
    const missing = await runCli(['result', 'q_doesnotexist'], env());
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^Error: not_found: /m);
  });

  it('6: --timeout runs out; the partial result is shown and the question keeps running', async () => {
    const live = await ask(t, owner, choiceDraft());
    await answerAll(t, live.id, heads.slice(50, 52));
    const waited = await runCli(['wait', live.id, '--timeout', '2', '--interval', '1'], env());
    expect(waited.code).toBe(6);
    expect(waited.stdout).toMatch(/^In progress · 2 of 10 answers/m);
    expect(waited.stderr).toContain(`Still running after 2 s (2 of 10 answers): ${live.id} keeps going`);
    expect((await getQuestion(t, owner, live.id)).status).toBe('live');
  });

  it('130: Ctrl-C stops the wait cleanly; the question keeps running', async () => {
    const live = await ask(t, owner, choiceDraft());
    const running = startCli(['wait', live.id, '--interval', '1'], env());
    await running.waitFor(/0 of 10 answers/, 'stderr');
    await sleep(300);
    running.child.kill('SIGINT');
    const done = await running.done;
    expect(done.code).toBe(130);
    expect(done.stderr).toContain(`Stopped waiting. ${live.id} keeps running; wait again with: headcount wait ${live.id}`);
    expect((await getQuestion(t, owner, live.id)).status).toBe('live');
  });
});
