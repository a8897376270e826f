import type { JobQueue, SqlExecutor } from './job.ts';

/**
 * Timers for question transitions (go live at scheduledFor, close when the window ends), sent as
 * durable jobs. Main hands in the job queue (made before the container); without one (tests, the
 * CLI) nothing is scheduled and the periodic sweep (or a test calling it) does the transitions.
 */
export class Timers {
  constructor(private readonly queue: JobQueue | null) {}

  /** `transaction`: written in the caller's transaction (lib/job.ts JobSendOptions). */
  async at(name: string, data: object, when: Date | null, options: { singletonKey?: string; transaction?: SqlExecutor } = {}): Promise<void> {
    if (!this.queue) return;
    await this.queue.send(name, data, { startAfter: when ?? undefined, ...options });
  }
}
