import type { ChildMessage, ParentMessage } from './protocol.ts';

/**
 * The child side of the protocol, shared by every server entry point: report `ready` once
 * listening, answer `stats`, and stop cleanly on `stop`, on a signal, or when the orchestrator goes
 * away (IPC disconnect) so no server outlives a crashed or interrupted run.
 */
export interface ChildServer {
  port: number;
  info: Record<string, unknown>;
  /** HTTP requests received since start. */
  requests(): number;
  queries(): number;
  /** Statements on the server's other connections (job queue, LISTEN); 0 when it has none. */
  otherQueries?(): number;
  /** Control operations the orchestrator may `call` (protocol.ts AppControls); none for the bare server. */
  control?(op: string, args: unknown): Promise<unknown>;
  close(): Promise<void>;
}

const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

/** Resolves once the message is handed to the channel, so exiting right after cannot drop it. */
function send(message: ChildMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(message, undefined, undefined, () => resolve());
  });
}

export async function serveChild(start: () => Promise<ChildServer>): Promise<void> {
  if (!process.send) throw new Error('A bench server must be started by bench/run.ts (it needs an IPC channel).');
  let server: ChildServer | null = null;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    try {
      await server?.close();
    } catch (error) {
      process.stderr.write(`bench server: error while closing: ${(error as Error).stack ?? String(error)}\n`);
      code = 1;
    }
    process.exit(code);
  };

  process.on('message', (message: ParentMessage) => {
    if (message.type === 'stop') void stop(0);
    else if (message.type === 'stats') {
      void send({ type: 'stats', requests: server?.requests() ?? 0, queries: server?.queries() ?? 0, otherQueries: server?.otherQueries?.() ?? 0, rssBytes: process.memoryUsage().rss, cpuMicros: cpuMicros() });
    } else if (message.type === 'call') {
      const { id, op } = message;
      const run = server?.control ? server.control(op, message.args) : Promise.reject(new Error('this server has no control operations'));
      run.then(
        (value) => send({ type: 'reply', id, ok: true, value }),
        (error: unknown) => send({ type: 'reply', id, ok: false, error: (error as Error)?.stack ?? String(error) }),
      );
    }
  });
  process.on('disconnect', () => void stop(0));
  // Ctrl-C reaches the whole process group; the orchestrator also asks us to stop, whichever comes first wins.
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  try {
    server = await start();
    await send({ type: 'ready', port: server.port, info: server.info });
  } catch (error) {
    // start() undoes its own partial work (an opened database) before throwing.
    await send({ type: 'failed', message: (error as Error).stack ?? String(error) });
    await stop(1);
  }
}
