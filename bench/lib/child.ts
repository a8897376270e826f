import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { ChildMessage, ControlName, Controls, ParentMessage, ReplyMessage, StatsMessage } from './protocol.ts';

/**
 * The orchestrator's handle on one server child (bench/servers/*.ts): start it, wait until it
 * listens, sample its counters, stop it. A child that does not start, or does not stop in time,
 * fails the run loudly rather than hanging it.
 */
export interface RunningServer {
  name: string;
  baseUrl: string;
  info: Record<string, unknown>;
  stats(): Promise<StatsMessage>;
  /**
   * Runs a control operation inside the child (protocol.ts AppControls, BareControls) and returns
   * its result; rejects with the child's error, or when the child does not answer within `timeoutMs`.
   */
  call<K extends ControlName>(op: K, args: Controls[K]['args'], timeoutMs?: number): Promise<Controls[K]['result']>;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 15_000;
const CALL_TIMEOUT_MS = 120_000;

function nextMessage<T extends ChildMessage['type']>(child: ChildProcess, type: T, timeoutMs: number): Promise<Extract<ChildMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`no "${type}" message within ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (message: ChildMessage) => {
      if (message.type === type) done(null, message as Extract<ChildMessage, { type: T }>);
      else if (message.type === 'failed') done(new Error(message.message));
    };
    const onExit = (code: number | null) => done(new Error(`exited (code ${code}) before sending "${type}"`));
    function done(error: Error | null, message?: Extract<ChildMessage, { type: T }>) {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(message!);
    }
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

export async function startServer(name: string, entry: URL, arg: unknown = {}, profileDir: string | null = null): Promise<RunningServer> {
  // Same Node, TypeScript through tsx like `npm start`; stdout/stderr shared so a crash is visible.
  // --cpu-prof cannot go through NODE_OPTIONS, hence the explicit profiling switch. Each thread
  // writes its own file (tsx's loader runs on a second thread); the server is the main thread's.
  // --expose-gc: the wait scenario reads memory after full collections (AppControls.memory).
  const execArgv = ['--import', 'tsx', '--expose-gc', ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}/${name}`] : [])];
  const child = fork(entry, [JSON.stringify(arg)], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let exited = false;
  child.once('exit', () => (exited = true));
  let ready;
  try {
    ready = await nextMessage(child, 'ready', START_TIMEOUT_MS);
  } catch (error) {
    if (!exited) child.kill('SIGKILL');
    throw new Error(`${name} server did not start: ${(error as Error).message}`);
  }
  const sendToChild = (message: ParentMessage) => child.send(message);
  let calls = 0;
  return {
    name,
    baseUrl: `http://127.0.0.1:${ready.port}`,
    info: ready.info,
    async stats() {
      const reply = nextMessage(child, 'stats', 10_000);
      sendToChild({ type: 'stats' });
      return reply;
    },
    call(op, args, timeoutMs = CALL_TIMEOUT_MS) {
      const id = ++calls;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => done(new Error(`${name} server: no answer to "${op}" within ${timeoutMs} ms`)), timeoutMs);
        const onMessage = (message: ChildMessage) => {
          if (message.type === 'reply' && message.id === id) done(message.ok ? null : new Error(`${name} server: "${op}" failed: ${message.error}`), message);
        };
        const onExit = (code: number | null) => done(new Error(`${name} server exited (code ${code}) during "${op}"`));
        function done(error: Error | null, message?: ReplyMessage) {
          clearTimeout(timer);
          child.off('message', onMessage);
          child.off('exit', onExit);
          if (error) reject(error);
          else resolve((message as Extract<ReplyMessage, { ok: true }>).value as never);
        }
        child.on('message', onMessage);
        child.on('exit', onExit);
        sendToChild({ type: 'call', id, op, args });
      });
    },
    async stop() {
      if (exited) return;
      const exit = once(child, 'exit');
      if (child.connected) sendToChild({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exit;
      clearTimeout(timer);
    },
  };
}
