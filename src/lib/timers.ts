/**
 * Timers for question transitions (go live at scheduledFor, close when the window ends). Main
 * plugs in the durable job runner; without one (tests, the CLI) nothing is scheduled and the
 * periodic sweep (or a test calling it) does the transitions.
 */
export interface TimerBackend {
  send(name: string, data: object, options?: { startAfter?: Date; singletonKey?: string }): Promise<void>;
}

export class Timers {
  private backend: TimerBackend | null = null;

  use(backend: TimerBackend | null): void {
    this.backend = backend;
  }

  async at(name: string, data: object, when: Date | null, singletonKey?: string): Promise<void> {
    if (!this.backend) return;
    await this.backend.send(name, data, { startAfter: when ?? undefined, singletonKey });
  }
}
