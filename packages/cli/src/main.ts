#!/usr/bin/env node
import { run } from './cli.ts';
import { InterruptedError } from './exit-codes.ts';

/**
 * The `headcount` process: the real streams and environment, Ctrl-C turned into an abort (a wait
 * stops cleanly and the run exits 130; a second Ctrl-C, or one the run does not notice within two
 * seconds, exits at once), and a closed stdout (`headcount list | head`) ending the run quietly.
 */
const controller = new AbortController();
let interrupts = 0;
process.on('SIGINT', () => {
  interrupts += 1;
  // Forced out: show the cursor again in case a progress bar had hidden it.
  const forceExit = () => {
    if (process.stderr.isTTY) process.stderr.write('\u001b[?25h\n');
    process.exit(130);
  };
  if (interrupts > 1) forceExit();
  controller.abort(new InterruptedError('interrupted'));
  setTimeout(forceExit, 2000).unref();
});
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

const code = await run(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, now: Date.now }, { signal: controller.signal });
process.exitCode = code;
// Nothing of the run should keep the process alive; if something does (a socket kept open), end anyway.
setTimeout(() => process.exit(code), 1000).unref();
