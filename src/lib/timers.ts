import type { CapturedStatement, JobQueue } from './job.ts';

/**
 * Timers for question transitions (go live at scheduledFor, close when the window ends), sent as
 * durable jobs. Main hands in the job queue (made before the container); without one (tests, the
 * CLI) nothing is scheduled and the periodic sweep (or a test calling it) does the transitions.
 */
export class Timers {
  constructor(private readonly queue: JobQueue | null) {}

  async at(name: string, data: object, when: Date | null, options: { singletonKey?: string } = {}): Promise<void> {
    if (!this.queue) return;
    await this.queue.send(name, data, { startAfter: when ?? undefined, ...options });
  }

  /** The statement that writes the timer `at` would write, for the caller to run in its own (lib/job.ts `sendStatement`); null without a job queue. */
  async statementAt(name: string, data: object, when: Date | null): Promise<CapturedStatement | null> {
    if (!this.queue) return null;
    return this.queue.sendStatement(name, data, { startAfter: when ?? undefined });
  }
}
