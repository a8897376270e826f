import { readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import { HeadcountConnectionError, HeadcountError, HeadcountTimeoutError, type Headcount, type Schemas } from '@headcount/sdk';
import { renderChart } from './chart.ts';
import { CredentialStore, DEFAULT_BASE_URL, maskKey, normalizeBaseUrl } from './credentials.ts';
import { addDraftOptions, askBodyFromFlags, estimateBodyFromFlags, integer, parseDraftJson, type DraftFlags, type Json } from './draft-flags.ts';
import { AuthError, EXIT, EXIT_CODES_HELP, exitCodeFor, formatError, HttpError, InterruptedError, isNetworkError, QuietExit, UsageError, WaitTimeoutError, type ExitCode } from './exit-codes.ts';
import { answersTable, askedLines, balanceLines, cancelledLines, credits, estimateLines, ledgerTable, number, questionsTable } from './format.ts';
import { apiResource, credentialFromTokens, discover, pollForTokens, registerClient, revokeTokens, startDeviceAuthorization } from './oauth.ts';
import { ProgressView } from './progress.ts';
import { CLI_VERSION, clientFor, describeCredential, notSignedIn, resolveCredential, signedInClient, type Context } from './session.ts';
import { progressBarEnabled, Ui, type Io } from './ui.ts';

/**
 * `headcount`: the commands, on the SDK. `run` takes the argument list and the streams and
 * returns the exit code, so tests drive it like the real process (main.ts) does.
 */
export interface RunOptions {
  /** The fetch every call goes through (tests pass a stand-in; default the global fetch). */
  fetch?: typeof fetch;
  /** Aborted on Ctrl-C: a wait stops and the run exits 130. */
  signal?: AbortSignal;
}

interface GlobalFlags {
  baseUrl?: string;
  json?: boolean;
  color?: boolean;
}

type Handler = (ctx: Context, ui: Ui, args: string[], flags: Record<string, unknown>) => Promise<ExitCode | void>;

export async function run(argv: string[], io: Io, options: RunOptions = {}): Promise<ExitCode> {
  const signal = options.signal ?? new AbortController().signal;
  let code: ExitCode = EXIT.ok;
  let ui: Ui | null = null;
  const program = buildProgram(io, async (handler, command, args) => {
    const flags = command.optsWithGlobals() as GlobalFlags & Record<string, unknown>;
    ui = new Ui(io, flags.json === true, flags.color !== false);
    const rawBase = flags.baseUrl ?? io.env.HEADCOUNT_BASE_URL ?? DEFAULT_BASE_URL;
    const ctx: Context = { io, baseUrl: normalizeBaseUrl(rawBase), store: new CredentialStore(io.env), signal, fetch: options.fetch ?? globalThis.fetch };
    code = (await handler(ctx, ui, args, flags)) ?? EXIT.ok;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    const interrupted = signal.aborted || error instanceof InterruptedError;
    if (error instanceof QuietExit) return error.exitCode;
    if (interrupted) return EXIT.interrupted;
    const json = (ui as Ui | null)?.json ?? argv.includes('--json');
    // With --json, an error envelope is the one document on stdout (the API's, or one of the same
    // shape for the tool's own failures); the line on stderr is for people.
    if (json) io.stdout.write(`${JSON.stringify(errorDocument(error), null, 2)}\n`);
    io.stderr.write(`${formatError(error)}\n`);
    return exitCodeFor(error);
  }
}

/** `{error: {code, message, …}}`: the API's envelope, or the same shape for a failure of the tool's own. */
function errorDocument(error: unknown): { error: Record<string, unknown> } {
  if (error instanceof HeadcountError) return { error: { code: error.code, message: error.message, details: error.details, requestId: error.requestId } };
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof HttpError) return { error: { code: error.code, message, requestId: error.requestId } };
  if (error instanceof AuthError) return { error: { code: error.code, message } };
  if (error instanceof UsageError) return { error: { code: 'usage_error', message } };
  if (error instanceof HeadcountTimeoutError) return { error: { code: 'timeout', message } };
  if (error instanceof HeadcountConnectionError || isNetworkError(error)) return { error: { code: 'network_error', message } };
  return { error: { code: 'error', message } };
}

function buildProgram(io: Io, invoke: (handler: Handler, command: Command, args: string[]) => Promise<void>): Command {
  const program = new Command('headcount');
  program
    .description('Ask verified people ("heads") short questions and get the split of their answers in minutes.')
    .version(CLI_VERSION, '-V, --version')
    .option('--base-url <url>', `the Headcount service (default $HEADCOUNT_BASE_URL, else ${DEFAULT_BASE_URL})`)
    .option('--json', "print the API's JSON (one document) and nothing else on stdout")
    .option('--no-color', 'no colour (also NO_COLOR=1)')
    .exitOverride()
    .configureOutput({ writeOut: (text) => void io.stdout.write(text), writeErr: (text) => void io.stderr.write(text) })
    .showHelpAfterError('(see headcount --help)')
    .showSuggestionAfterError(true)
    .addHelpText('after', EXIT_CODES_HELP);

  const on = (command: Command, handler: Handler) =>
    command.action(async (...params: unknown[]) => {
      const self = params.at(-1) as Command;
      await invoke(handler, self, self.args.slice(0, self.registeredArguments.length));
    });

  on(
    program
      .command('login')
      .description('sign in: the device grant in a browser (OAuth), or save an API key with --key')
      .option('--key <key>', 'save this API key (hc_live_… or hc_test_…) after checking it; - reads it from stdin')
      .option('--client-id <id>', 'an OAuth client id to use instead of registering one')
      .addHelpText('after', '\nExamples:\n  headcount login\n  headcount login --key hc_live_…\n  pass show headcount | headcount login --key -\n'),
    login,
  );
  on(program.command('logout').description('forget the saved credential of this service (an OAuth sign-in is also revoked)'), logout);
  on(program.command('whoami').description('which credential is used for this service, and whether it works'), whoami);

  on(
    addDraftOptions(program.command('estimate').description('price and check a draft; spends nothing').argument('[text]', 'the question (or --text)'), 'estimate').addHelpText(
      'after',
      '\nExamples:\n  headcount estimate --type scale_1_5 --text "How clear is this pricing page?" --n 20\n  headcount estimate --draft draft.json\n',
    ),
    estimate,
  );
  on(
    addWaitOptions(
      addDraftOptions(program.command('ask').description('ask heads a question (reserves its price)').argument('[text]', 'the question (or --text)'), 'ask')
        .option('--idempotency-key <key>', 'a key of your own (1–200 characters): the same key asks once, however often the command is run')
        .option('--wait', 'wait for the answers with a progress bar, then show the result'),
    ).addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  headcount ask --type single_choice --text "Which name is best?" --option Penny --option Pocket --n 50 --wait',
        '  headcount ask --type ab_image --text "Which logo?" --option "Blue=https://…/blue.png" --option "Red=https://…/red.png"',
        '  headcount ask --type click_test --text "Where would you tap to pay?" --image https://…/screen.png --max-taps 1',
        '  headcount ask --type reaction --text "How does this make you feel?" --image https://…/ad.png --exposure-ms 5000 --option Good --option Bad',
        '  headcount ask --type free_text --text "What is missing from this page?" --country GB --age 25-34,35-44',
        '  cat draft.json | headcount ask --draft - --json',
        '',
      ].join('\n'),
    ),
    ask,
  );
  on(
    addResultFilters(addWaitOptions(program.command('result').description('the result of a question as a chart (partial while live)').argument('<id>', 'the question (q_…)').option('--wait', 'wait until it closes first'))),
    result,
  );
  on(addWaitOptions(program.command('wait').description('wait for a question with a progress bar, then show the result').argument('<id>', 'the question (q_…)')), waitCommand);
  on(
    addResultFilters(
      program
        .command('answers')
        .description('the answers of a question, newest first')
        .argument('<id>', 'the question (q_…)')
        .option('--limit <n>', 'how many (1 to 5000, default 50)', integer('--limit', 1, 5000), 50)
        .option('--cursor <cursor>', 'continue after a previous page (its nextCursor)'),
    ),
    answers,
  );
  on(
    program
      .command('list')
      .description("the account's questions, newest first")
      .option('--limit <n>', 'how many (1 to 100, default 20)', integer('--limit', 1, 100), 20)
      .option('--cursor <cursor>', 'continue after a previous page (its nextCursor)')
      .addOption(new Option('--status <status>', 'only questions in this state').choices(['draft', 'scheduled', 'live', 'complete', 'underfilled', 'cancelled', 'refused']))
      .option('--since <instant>', 'created at or after this ISO 8601 instant')
      .option('--label <label>', 'with this label')
      .option('--project <id>', 'in this project')
      .option('--external-ref <ref>', 'with this external reference')
      .addOption(new Option('--archived <which>', 'archived questions: exclude (default), only, include').choices(['exclude', 'only', 'include']))
      .option('--bookmarked', 'only bookmarked questions')
      .option('--mine', 'only questions asked with this credential'),
    list,
  );
  on(program.command('cancel').description('cancel a question; credits of answers not given come back').argument('<id>', 'the question (q_…)'), cancel);
  on(
    program
      .command('export')
      .description('save a question as CSV (every answer), PDF (one-page report) or PNG (the chart)')
      .argument('<id>', 'the question (q_…)')
      .addOption(new Option('--format <format>', 'csv, pdf or png').choices(['csv', 'pdf', 'png']).makeOptionMandatory())
      .option('-o, --output <file>', 'where to write it (default: the name the service gives it, here); - writes to stdout')
      .option('--force', 'overwrite the file if it exists')
      .addOption(new Option('--size <size>', 'png: square (1080×1080, default), wide (1200×675) or story (1080×1920)').choices(['square', 'wide', 'story'])),
    exportCommand,
  );
  on(program.command('balance').description('credits available, reserved, expiring, and the daily cap left'), balance);
  on(
    program
      .command('ledger')
      .description('credit movements, newest first')
      .option('--limit <n>', 'how many rows (1 to 1000, default 20)', integer('--limit', 1, 1000), 20)
      .option('--cursor <cursor>', 'continue after a previous page (its nextCursor)'),
    ledger,
  );
  return program;
}

function addWaitOptions(command: Command): Command {
  return command
    .option('--timeout <seconds>', 'give up waiting after this long (exit 6; the question keeps running)', integer('--timeout', 1, 31 * 24 * 3600))
    .option('--interval <seconds>', 'how often the progress is refreshed, 1 to 25 s (default 3)', integer('--interval', 1, 25));
}

function addResultFilters(command: Command): Command {
  return command
    .option('--option-index <i>', 'only answers that chose option i (0 = first; "neither" is last)', integer('--option-index', 0, 8))
    .addOption(new Option('--tier <tier>', 'only heads of this tier').choices(['1', '2', '3']).argParser(integer('--tier', 1, 3)))
    .option('--country <CC>', 'only heads from this country')
    .option('--age-band <band>', 'only heads in this age band (25-34, 65+, …)')
    .addOption(new Option('--gender <gender>', 'only heads of this gender').choices(['woman', 'man', 'non_binary']))
    .option('--search <text>', 'only answers whose text or reason contains this');
}

function filtersFrom(flags: Record<string, unknown>): Record<string, string | number> {
  const query: Record<string, string | number> = {};
  if (flags.optionIndex !== undefined) query.option = flags.optionIndex as number;
  if (flags.tier !== undefined) query.tier = flags.tier as number;
  if (flags.country !== undefined) query.country = flags.country as string;
  if (flags.ageBand !== undefined) query.age_band = flags.ageBand as string;
  if (flags.gender !== undefined) query.gender = flags.gender as string;
  if (flags.search !== undefined) query.q = flags.search as string;
  return query;
}

// ---------------------------------------------------------------------------------------------
// Signing in

async function readStdin(io: Io): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

const login: Handler = async (ctx, ui, _args, flags) => {
  if (flags.key !== undefined) return loginWithKey(ctx, ui, flags.key as string);
  if (ctx.io.env.HEADCOUNT_API_KEY) ui.note('Note: HEADCOUNT_API_KEY is set, and is used instead of any saved sign-in while it is.');
  const metadata = await discover(ctx.baseUrl, ctx.fetch, ctx.signal);
  const resource = apiResource(metadata, ctx.baseUrl);
  let clientId = (flags.clientId as string | undefined) ?? (await ctx.store.client(ctx.baseUrl))?.clientId ?? null;
  let registered = false;
  const register = async () => {
    const id = await registerClient(metadata, `headcount CLI on ${os.hostname()}`, ctx.fetch, ctx.signal);
    await ctx.store.saveClient(ctx.baseUrl, { clientId: id, registeredAt: new Date(ctx.io.now()).toISOString() });
    registered = true;
    return id;
  };
  clientId ??= await register();
  let device;
  try {
    device = await startDeviceAuthorization(metadata, clientId, resource, ctx.fetch, ctx.signal);
  } catch (error) {
    // A client this machine registered once may be gone from the service: register again, once.
    if (!(error instanceof AuthError) || error.code !== 'invalid_client' || registered || flags.clientId) throw error;
    clientId = await register();
    device = await startDeviceAuthorization(metadata, clientId, resource, ctx.fetch, ctx.signal);
  }
  const c = ui.err;
  const open = device.verification_uri_complete ?? device.verification_uri;
  ui.note(`To sign in, open this address in a browser:\n\n  ${c.bold(c.cyan(open))}\n`);
  ui.note(`and check that it shows the code ${c.bold(device.user_code)}${device.verification_uri_complete ? '' : ` (type it at ${device.verification_uri})`}.`);
  ui.note(c.dim(`Waiting for you to approve (the code works for ${Math.round(device.expires_in / 60)} min; Ctrl-C to stop)…`));
  let tokens;
  try {
    tokens = await pollForTokens(metadata, clientId, device, ctx.fetch, {
      signal: ctx.signal,
      now: ctx.io.now,
      onSlowDown: (interval) => ui.note(c.dim(`The service asked to poll more slowly: every ${interval} s now.`)),
    });
  } catch (error) {
    if (ctx.signal.aborted) ui.note('Stopped waiting for the sign-in; nothing was saved.');
    throw error;
  }
  const credential = credentialFromTokens(tokens, { clientId, metadata, resource, now: ctx.io.now() });
  await ctx.store.save(ctx.baseUrl, credential);
  const summary = { baseUrl: ctx.baseUrl, credential: 'oauth', scope: credential.scope, expiresAt: credential.expiresAt, renewable: credential.refreshToken !== null, file: ctx.store.file };
  if (ui.json) ui.printJson(summary);
  else {
    ui.print(`Signed in to ${ctx.baseUrl}${credential.scope ? ` with ${credential.scope}` : ''}.`);
    ui.print(c.dim(`Saved in ${ctx.store.file}${credential.refreshToken ? '; renewed automatically when it expires' : ''}.`));
  }
};

async function loginWithKey(ctx: Context, ui: Ui, given: string): Promise<void> {
  const key = (given === '-' ? await readStdin(ctx.io) : given).trim();
  if (!/^hc_[a-z]+_[A-Za-z0-9]+$/.test(key)) throw new UsageError('--key takes an API key such as hc_live_… (made in the portal under Developers).');
  const hc = clientFor(ctx, { kind: 'api_key', apiKey: key, source: 'file' });
  // The key is checked before it is saved: 401 is a key the service does not know (exit 3).
  let balance: Schemas['Balance'] | null = null;
  let scopeNote: string | null = null;
  try {
    balance = await hc.billing.balance({ signal: ctx.signal });
  } catch (error) {
    if (!(error instanceof HeadcountError && error.status === 403)) {
      if (error instanceof HeadcountError && error.status === 401) throw new AuthError(`The service refused this key (${error.message}); nothing was saved.`, error.code);
      throw error;
    }
    scopeNote = 'This key cannot read the balance (it has no account:read scope).';
  }
  await ctx.store.save(ctx.baseUrl, { type: 'api_key', apiKey: key, savedAt: new Date(ctx.io.now()).toISOString() });
  if (ui.json) {
    ui.printJson({ baseUrl: ctx.baseUrl, credential: 'api_key', key: maskKey(key), file: ctx.store.file, balance });
    return;
  }
  ui.print(`Saved API key ${maskKey(key)} for ${ctx.baseUrl}.`);
  if (balance) ui.print(`${credits(balance.credits - balance.reserved)} available.`);
  if (scopeNote) ui.note(scopeNote);
  ui.print(ui.out.dim(`Saved in ${ctx.store.file}.`));
  if (ctx.io.env.HEADCOUNT_API_KEY && ctx.io.env.HEADCOUNT_API_KEY.trim() !== key) ui.note('Note: HEADCOUNT_API_KEY is set, and is used instead of this key while it is.');
}

const logout: Handler = async (ctx, ui) => {
  const removed = await ctx.store.remove(ctx.baseUrl);
  const revoked = removed?.type === 'oauth' ? await revokeTokens(removed, ctx.fetch, ctx.signal) : false;
  if (ui.json) ui.printJson({ baseUrl: ctx.baseUrl, removed: removed?.type ?? null, revoked });
  else if (!removed) ui.print(`Nothing saved for ${ctx.baseUrl}; not signed in.`);
  else if (removed.type === 'oauth') ui.print(`Signed out of ${ctx.baseUrl}${revoked ? '; the sign-in is revoked at the service' : ' (the service could not be told; the connection ends when its token expires, or disconnect it in the portal)'}.`);
  else ui.print(`Forgot API key ${maskKey(removed.apiKey)} for ${ctx.baseUrl}. The key itself still works until it is revoked in the portal (Developers).`);
  if (ctx.io.env.HEADCOUNT_API_KEY) ui.note('HEADCOUNT_API_KEY is still set in the environment, and is still used.');
};

const whoami: Handler = async (ctx, ui) => {
  const credential = await resolveCredential(ctx);
  if (!credential) throw notSignedIn(ctx);
  const hc = clientFor(ctx, credential);
  let balance: Schemas['Balance'] | null = null;
  let note: string | null = null;
  try {
    balance = await hc.billing.balance({ signal: ctx.signal });
  } catch (error) {
    if (error instanceof HeadcountError && error.status === 401) throw new AuthError(`The service refused the ${credential.kind === 'oauth' ? 'saved sign-in' : 'API key'} (${error.message}); run \`headcount login\`.`, error.code);
    if (!(error instanceof HeadcountError && error.status === 403)) throw error;
    note = 'The credential works but cannot read the balance (no account:read scope).';
  }
  // Read again: the call may have renewed an OAuth token.
  const now = credential.kind === 'oauth' ? ((await resolveCredential(ctx)) ?? credential) : credential;
  const info: Json = { baseUrl: ctx.baseUrl, credential: credential.kind, source: credential.source === 'env' ? 'HEADCOUNT_API_KEY' : ctx.store.file };
  if (now.kind === 'api_key') info.key = maskKey(now.apiKey);
  else Object.assign(info, { scope: now.oauth.scope, expiresAt: now.oauth.expiresAt, renewable: now.oauth.refreshToken !== null });
  info.balance = balance;
  if (ui.json) return void ui.printJson(info);
  ui.print(`${ctx.baseUrl}: ${describeCredential(now)}.`);
  if (now.kind === 'oauth') {
    if (now.oauth.scope) ui.print(`Scopes: ${now.oauth.scope}.`);
    if (now.oauth.expiresAt) ui.print(`Access token valid until ${new Date(now.oauth.expiresAt).toISOString()}${now.oauth.refreshToken ? ' (renewed automatically)' : ''}.`);
  }
  if (balance?.account) ui.print(`Acts for ${balance.account.kind === 'team' ? 'the team' : 'the personal account'} "${balance.account.name}" (${balance.account.id}).`);
  if (balance) ui.print(`${credits(balance.credits - balance.reserved)} available (${balance.currency}).`);
  if (note) ui.print(note);
};

// ---------------------------------------------------------------------------------------------
// Asking

async function draftFile(ctx: Context, flags: DraftFlags): Promise<Json | null> {
  if (flags.draft === undefined) return null;
  if (flags.draft === '-') return parseDraftJson(await readStdin(ctx.io), '-');
  let text: string;
  try {
    text = await readFile(flags.draft, 'utf8');
  } catch (error) {
    throw new UsageError(`--draft ${flags.draft}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
  return parseDraftJson(text, flags.draft);
}

/** A client for public calls: with the saved credential when there is one, else none at all. */
async function publicClient(ctx: Context): Promise<Headcount> {
  return clientFor(ctx, await resolveCredential(ctx));
}

const estimate: Handler = async (ctx, ui, args, flags) => {
  const body = estimateBodyFromFlags(flags as DraftFlags, await draftFile(ctx, flags as DraftFlags), args[0]);
  const hc = await publicClient(ctx);
  const answer = await hc.billing.estimate(body.draft as never, { signal: ctx.signal, ...(body.surface ? { surface: body.surface as 'app' | 'web' } : {}) });
  if (ui.json) ui.printJson(answer);
  // The service prices 50 answers when the draft names no n.
  else for (const line of estimateLines(answer, typeof (body.draft as Json).n === 'number' ? ((body.draft as Json).n as number) : 50, ui.out)) ui.print(line);
  return answer.validation.length === 0 ? EXIT.ok : EXIT.api;
};

const ask: Handler = async (ctx, ui, args, flags) => {
  const body = askBodyFromFlags(flags as DraftFlags, await draftFile(ctx, flags as DraftFlags), args[0]);
  const { hc } = await signedInClient(ctx);
  const idempotencyKey = flags.idempotencyKey as string | undefined;
  if (idempotencyKey !== undefined && (idempotencyKey.length < 1 || idempotencyKey.length > 200)) throw new UsageError('--idempotency-key must be 1 to 200 characters.');
  const question = await hc.questions.ask(body as never, { signal: ctx.signal, ...(idempotencyKey ? { idempotencyKey } : {}) });
  if (!flags.wait) {
    if (ui.json) return void ui.printJson({ question });
    for (const line of askedLines(question)) ui.print(line);
    ui.note(ui.err.dim(`Follow it: headcount wait ${question.id}`));
    return;
  }
  if (!ui.json) for (const line of askedLines(question)) ui.print(line);
  return waitAndShow(ctx, ui, hc, question, flags, { question });
};

const result: Handler = async (ctx, ui, args, flags) => {
  const id = args[0]!;
  const { hc } = await signedInClient(ctx);
  if (flags.wait) {
    if (Object.keys(filtersFrom(flags)).length) throw new UsageError('--wait shows the whole result; ask for a filtered one without --wait.');
    const question = await hc.questions.get(id, { signal: ctx.signal });
    return waitAndShow(ctx, ui, hc, question, flags, {});
  }
  const [answer, question] = await Promise.all([hc.questions.result(id, filtersFrom(flags) as never, { signal: ctx.signal }), ui.json ? null : hc.questions.get(id, { signal: ctx.signal })]);
  if (ui.json) return void ui.printJson({ result: answer });
  for (const line of renderChart(answer as never, question, { width: ui.width, colors: ui.out })) ui.print(line);
};

const waitCommand: Handler = async (ctx, ui, args, flags) => {
  const { hc } = await signedInClient(ctx);
  const question = await hc.questions.get(args[0]!, { signal: ctx.signal });
  return waitAndShow(ctx, ui, hc, question, flags, {});
};

/**
 * Waits with waitForResult, showing progress on stderr (a live bar on a terminal, plain lines
 * elsewhere), then prints the chart (or, with --json, `{result, done}` plus what `extra` adds).
 * Ctrl-C stops the wait only: the question keeps running. --timeout ends it with exit 6.
 */
async function waitAndShow(ctx: Context, ui: Ui, hc: Headcount, question: Schemas['Question'], flags: Record<string, unknown>, extra: Json): Promise<ExitCode> {
  const timeoutSeconds = flags.timeout as number | undefined;
  const live = progressBarEnabled(ctx.io.stderr, ctx.io.env, ui.color);
  const view = new ProgressView(ctx.io.stderr, { live, colors: ui.err, now: ctx.io.now, width: () => ui.stderrWidth });
  if (question.status === 'scheduled' && question.scheduledFor) ui.note(`${question.id} is scheduled for ${new Date(question.scheduledFor).toISOString()}; waiting for it to go live and be answered.`);
  else if (question.status === 'draft') ui.note(`${question.id} is a follow-up waiting for its parent to close.`);
  view.update(question.answered, question.n, { etaMinutes: question.etaMinutes, liveAt: question.liveAt });
  const started = Date.now();
  let final: Schemas['Result'];
  try {
    final = await hc.waitForResult(question.id, {
      signal: ctx.signal,
      seconds: (flags.interval as number | undefined) ?? 3,
      ...(timeoutSeconds !== undefined ? { timeoutMs: timeoutSeconds * 1000 } : {}),
      onProgress: (progress) => view.update(progress.answered, progress.n),
    });
  } catch (error) {
    view.stop();
    if (ctx.signal.aborted) {
      ui.note(`Stopped waiting. ${question.id} keeps running; wait again with: headcount wait ${question.id}`);
      throw new InterruptedError('interrupted');
    }
    const timedOut = error instanceof HeadcountTimeoutError && timeoutSeconds !== undefined && Date.now() - started >= timeoutSeconds * 1000 - 50;
    if (!timedOut) throw error;
    const partial = error.lastResult ?? (await hc.questions.result(question.id, {}, { signal: ctx.signal }));
    if (ui.json) ui.printJson({ ...extra, result: partial, done: false });
    else for (const line of renderChart(partial as never, question, { width: ui.width, colors: ui.out })) ui.print(line);
    const timeout = new WaitTimeoutError(question.id, timeoutSeconds);
    ui.note(`Still running after ${timeoutSeconds} s (${partial.nAccepted} of ${partial.nRequested} answers): ${question.id} keeps going; wait again with: headcount wait ${question.id}`);
    throw new QuietExit(exitCodeFor(timeout));
  }
  view.stop();
  if (ui.json) ui.printJson({ ...extra, result: final, done: true });
  else {
    ui.print();
    for (const line of renderChart(final as never, question, { width: ui.width, colors: ui.out })) ui.print(line);
  }
  return EXIT.ok;
}

const answers: Handler = async (ctx, ui, args, flags) => {
  const id = args[0]!;
  const { hc } = await signedInClient(ctx);
  const limit = flags.limit as number;
  const query = { ...filtersFrom(flags), ...(flags.cursor ? { cursor: flags.cursor as string } : {}) };
  let page = await hc.questions.answersPage(id, { ...query, limit: Math.min(limit, 200) } as never, { signal: ctx.signal });
  // More than one page: the pages joined into one document of the same shape.
  const all = [...page.answers];
  while (all.length < limit && page.nextCursor) {
    page = await hc.questions.answersPage(id, { ...query, cursor: page.nextCursor, limit: Math.min(limit - all.length, 200) } as never, { signal: ctx.signal });
    all.push(...page.answers);
  }
  const document = { ...page, answers: all };
  if (ui.json) return void ui.printJson(document);
  for (const line of answersTable(all, { width: ui.tableWidth, colors: ui.out })) ui.print(line);
  const shown = `${number(all.length)} of ${number(page.total)} answer${page.total === 1 ? '' : 's'}`;
  ui.note(ui.err.dim(page.nextCursor ? `${shown}; more: headcount answers ${id} --cursor ${page.nextCursor}` : shown));
};

const list: Handler = async (ctx, ui, _args, flags) => {
  const { hc } = await signedInClient(ctx);
  const query: Record<string, unknown> = { limit: flags.limit };
  for (const [flag, name] of [
    ['cursor', 'cursor'],
    ['status', 'status'],
    ['since', 'since'],
    ['label', 'label'],
    ['project', 'projectId'],
    ['externalRef', 'externalRef'],
    ['archived', 'archived'],
  ] as const) {
    if (flags[flag] !== undefined) query[name] = flags[flag];
  }
  if (flags.bookmarked) query.bookmarked = true;
  if (flags.mine) query.mine = true;
  const page = await hc.questions.listPage(query as never, { signal: ctx.signal });
  if (ui.json) return void ui.printJson(page);
  for (const line of questionsTable(page.questions, { width: ui.tableWidth, colors: ui.out })) ui.print(line);
  if (page.nextCursor) ui.note(ui.err.dim(`More: headcount list --cursor ${page.nextCursor}`));
};

const cancel: Handler = async (ctx, ui, args) => {
  const { hc } = await signedInClient(ctx);
  const answer = await hc.questions.cancel(args[0]!, { signal: ctx.signal });
  if (ui.json) return void ui.printJson(answer);
  for (const line of cancelledLines(answer.question, answer.refundCredits)) ui.print(line);
};

/** A file name the service suggested, reduced to a plain name in this directory. */
function safeFilename(name: string | null, id: string, format: string): string {
  const base = name ? path.basename(name.replace(/\\/g, '/')).replace(/[\u0000-\u001f]/g, '') : '';
  return base && base !== '.' && base !== '..' ? base : `${id}.${format}`;
}

const exportCommand: Handler = async (ctx, ui, args, flags) => {
  const id = args[0]!;
  const format = flags.format as 'csv' | 'pdf' | 'png';
  if (flags.size !== undefined && format !== 'png') throw new UsageError('--size is for --format png only.');
  const toStdout = flags.output === '-';
  if (toStdout && ui.json) throw new UsageError('--output - writes the file to stdout, which --json needs for its document; choose one.');
  const { hc } = await signedInClient(ctx);
  const given = flags.output as string | undefined;
  const refuse = (file: string) => new UsageError(`${file} exists; pass --force to overwrite it.`);
  if (given && !toStdout && !flags.force && (await exists(given))) throw refuse(given);
  const file = await hc.questions.export(id, format, (format === 'png' && flags.size ? { size: flags.size } : undefined) as never, { signal: ctx.signal });
  if (toStdout) {
    ctx.io.stdout.write(file.bytes);
    return;
  }
  const target = given ?? safeFilename(file.filename, id, format);
  try {
    await writeFile(target, file.bytes, { flag: flags.force ? 'w' : 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw refuse(target);
    throw error;
  }
  const summary = { questionId: id, format, path: path.resolve(target), bytes: file.bytes.length, contentType: file.contentType, filename: file.filename };
  if (ui.json) ui.printJson(summary);
  else ui.print(`Wrote ${target} (${number(file.bytes.length)} bytes, ${file.contentType.split(';')[0]}).`);
};

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

// ---------------------------------------------------------------------------------------------
// Credits

const balance: Handler = async (ctx, ui) => {
  const { hc } = await signedInClient(ctx);
  const answer = await hc.billing.balance({ signal: ctx.signal });
  if (ui.json) return void ui.printJson(answer);
  for (const line of balanceLines(answer, ui.out)) ui.print(line);
};

const ledger: Handler = async (ctx, ui, _args, flags) => {
  const { hc } = await signedInClient(ctx);
  const limit = flags.limit as number;
  let page = await hc.billing.ledgerPage(flags.cursor ? { cursor: flags.cursor as string } : {}, { signal: ctx.signal });
  const rows = [...page.rows];
  while (rows.length < limit && page.nextCursor) {
    page = await hc.billing.ledgerPage({ cursor: page.nextCursor }, { signal: ctx.signal });
    rows.push(...page.rows);
  }
  // The service pages by 50: a cut inside a page has no cursor to continue from exactly there.
  const cut = rows.length > limit;
  const document = { rows: rows.slice(0, limit), nextCursor: cut ? null : page.nextCursor };
  if (ui.json) return void ui.printJson(document);
  for (const line of ledgerTable(document.rows, { width: ui.tableWidth, colors: ui.out })) ui.print(line);
  if (document.nextCursor) ui.note(ui.err.dim(`More: headcount ledger --cursor ${document.nextCursor}`));
  else if (cut) ui.note(ui.err.dim(`More: headcount ledger --limit ${Math.min(1000, limit * 2)}`));
};
