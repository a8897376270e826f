import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestKey } from '../helpers/test-app.ts';
import { createListeningApp } from '../helpers/http-browser.ts';
import { answerAll, ask, choiceDraft, fundedKey, NO_RATE_LIMITS, seedHeads, sleep, type Head } from '../helpers/questions.ts';
import { CLI, cliHome, ensureBuilt, runCli, type CliHome } from './headcount-cli-helpers.ts';

/**
 * `headcount` in a real terminal: tmux (a pseudo-terminal of 120 × 40) runs the command while
 * the test answers the question, and reads the screen as a person sees it (`capture-pane -p`,
 * with `-e` for the colour codes). The progress bar is redrawn in place and moves as answers
 * arrive; the chart is in colour on a terminal, and plain with NO_COLOR or --no-color (which also
 * turn the bar into plain progress lines).
 * Needs tmux (Debian: `apt-get install tmux`).
 */
const run = promisify(execFile);
const SOCKET = `headcount-cli-test-${process.pid}`;
let t: TestApp & { baseUrl: string };
let heads: Head[];
let owner: TestKey;
let home: CliHome;

/** tmux on a server of this file's own, without any TMUX of the shell that runs the tests. */
async function tmux(...args: string[]): Promise<string> {
  const { TMUX: _tmux, ...env } = process.env;
  return (await run('tmux', ['-L', SOCKET, ...args], { env })).stdout;
}

/** A shell line that runs headcount with exactly this environment, then says how it ended and stays on screen. */
function shellLine(args: string[], extra: Record<string, string> = {}): string {
  const env = { ...home.env(), TERM: 'screen-256color', ...extra };
  const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
  const assignments = Object.entries(env).map(([name, value]) => `${name}=${quote(value)}`);
  return `cd ${quote(home.dir)} && env -i ${assignments.join(' ')} ${quote(process.execPath)} ${quote(CLI)} ${args.map(quote).join(' ')}; echo "EXIT=$?"; sleep 600`;
}

async function screen(session: string, escapes = false): Promise<string> {
  return tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', session);
}

/** Reads the screen until `pattern` shows (or fails with what the screen showed). */
async function until(session: string, pattern: RegExp, ms = 20_000): Promise<string> {
  const deadline = Date.now() + ms;
  let last = '';
  while (Date.now() < deadline) {
    last = await screen(session);
    if (pattern.test(last)) return last;
    await sleep(100);
  }
  throw new Error(`the terminal never showed ${pattern}; it shows:\n${last}`);
}

beforeAll(async () => {
  try {
    await run('tmux', ['-V']);
  } catch {
    throw new Error('tmux is needed for this test (apt-get install tmux)');
  }
  await ensureBuilt();
  t = await createListeningApp({ env: { ...NO_RATE_LIMITS } });
  heads = await seedHeads(t, 30);
  owner = await fundedKey(t, 10_000);
  home = await cliHome(t.baseUrl);
  expect((await runCli(['login', '--key', owner.secret], home.env())).code).toBe(0);
});
afterAll(async () => {
  await tmux('kill-server').catch(() => {});
  await home?.dispose();
  await t?.close();
});

const ESC = '\u001b[';
const colourCode = /\u001b\[(?:[0-9;]*;)?(?:3[0-7]|9[0-7]|38;[25];[0-9;]+)m/;

describe('headcount in a terminal (tmux)', () => {
  it('ask --wait: a progress bar redrawn in place that moves as heads answer, then the chart in colour', async () => {
    await tmux('new-session', '-d', '-s', 'ask', '-x', '120', '-y', '40', shellLine(['ask', '--type', 'single_choice', '--text', 'Which name is best for a savings app?', '--option', 'Penny', '--option', 'Pocket', '--n', '10', '--wait', '--interval', '1']));
    const asked = await until('ask', /Asked (q_\w+)/);
    const id = /Asked (q_\w+)/.exec(asked)![1]!;
    const bar = (text: string) => text.split('\n').find((line) => /\d+\/10 answers/.test(line)) ?? '';
    const filled = (line: string) => [...line].filter((ch) => ch === '█').length;

    const at0 = bar(await until('ask', /░+ 0\/10 answers/));
    expect(filled(at0)).toBe(0);
    await answerAll(t, id, heads.slice(0, 3), { option: 0 });
    const at3 = bar(await until('ask', /█+░+ 3\/10 answers +30%/));
    await answerAll(t, id, heads.slice(3, 7), { option: 0 });
    const at7 = bar(await until('ask', /█+░+ 7\/10 answers +70%/));
    expect(filled(at3)).toBeGreaterThan(0);
    expect(filled(at7)).toBeGreaterThan(filled(at3));
    // Redrawn in place: one progress line on the screen, never a scroll of them.
    expect((await screen('ask')).split('\n').filter((line) => /\d+\/10 answers/.test(line))).toHaveLength(1);

    // 9 to 1: a clear leader (95% intervals apart), drawn in green.
    await answerAll(t, id, heads.slice(7, 10), (i) => ({ option: i === 2 ? 1 : 0 }));
    const final = await until('ask', /EXIT=\d+/);
    expect(final).toContain('EXIT=0');
    const lines = final.split('\n');
    expect(lines.find((line) => line.startsWith('  Penny '))).toMatch(/^ {2}Penny {3}█+[▏▎▍▌▋▊▉]?·*  90% {2}9 {2}\(\d+–\d+%\)$/);
    expect(lines.find((line) => line.startsWith('  Pocket '))).toMatch(/^ {2}Pocket {2}█+[▏▎▍▌▋▊▉]?·*  10% {2}1 {2}\(\d+–\d+%\)$/);
    expect(final).toMatch(/^Complete · 10 of 10 answers/m);
    expect(final).toMatch(/10\/10 answers +100% +done/);

    const coloured = await screen('ask', true);
    expect(coloured).toMatch(colourCode);
    // The leader's bar in green, the other in cyan.
    expect(coloured.split('\n').find((line) => line.includes('Penny'))).toContain(`${ESC}32m█`);
    expect(coloured.split('\n').find((line) => line.includes('Pocket'))).toContain(`${ESC}36m█`);
  }, 60_000);

  it('NO_COLOR=1 (and --no-color): the same chart on a terminal without a colour code, and plain progress lines instead of the bar', async () => {
    const question = await ask(t, owner, choiceDraft());
    await answerAll(t, question.id, heads.slice(10, 20), (i) => ({ option: i < 7 ? 0 : 1 }));
    for (const [session, args, extra] of [
      ['nocolor', ['result', question.id], { NO_COLOR: '1' }],
      ['flag', ['result', question.id, '--no-color'], {}],
    ] as const) {
      await tmux('new-session', '-d', '-s', session, '-x', '120', '-y', '40', shellLine([...args], extra));
      const text = await until(session, /EXIT=\d+/);
      expect(text).toContain('EXIT=0');
      expect(text).toMatch(/^ {2}Penny {3}█+.* 70% {2}7 /m);
      const raw = await screen(session, true);
      expect(raw).not.toMatch(colourCode);
      expect(raw).not.toContain(`${ESC}1m`);
    }
    // Waiting with NO_COLOR: no bar redrawn in place, the plain progress lines instead.
    await tmux('new-session', '-d', '-s', 'waitplain', '-x', '120', '-y', '40', shellLine(['wait', question.id], { NO_COLOR: '1' }));
    const waited = await until('waitplain', /EXIT=\d+/);
    expect(waited).toContain('EXIT=0');
    expect(waited).toMatch(/^10 of 10 answers \(100%\), done$/m);
    expect(waited).not.toContain('░');
    expect(await screen('waitplain', true)).not.toMatch(colourCode);
    // And colour by default on the same terminal.
    await tmux('new-session', '-d', '-s', 'colour', '-x', '120', '-y', '40', shellLine(['result', question.id]));
    await until('colour', /EXIT=0/);
    expect(await screen('colour', true)).toMatch(colourCode);
  }, 60_000);
});
