/** Logs a failed turn; the task is tried again at the next. */
type FailureLog = { warn(fields: object, message: string): void };

interface PeriodicTaskOptions {
  /** How often a turn runs. */
  everyMs: number;
  /** When the first turn runs after start; everyMs unless given. */
  firstAfterMs?: number;
  /** Logged when a turn fails, with the error. */
  failure: string;
  log: FailureLog;
}

/**
 * A task a process runs on a timer (the bounce mailbox's poll, the retention sweep): one turn at a
 * time, a failed turn logged and tried again at the next, the timer never holding the process open,
 * and stop() waiting for a turn under way. Whether a turn is due across processes is the task's own
 * claim (scheduled_runs).
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly turn: () => Promise<unknown>,
    private readonly options: PeriodicTaskOptions,
  ) {}

  start(): void {
    if (this.timer) return;
    const { everyMs, firstAfterMs = everyMs } = this.options;
    this.timer = setTimeout(() => {
      this.tick();
      this.timer = setInterval(() => this.tick(), everyMs).unref();
    }, firstAfterMs).unref();
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private tick(): void {
    this.running ??= this.turn()
      .catch((err: unknown) => this.options.log.warn({ err: (err as Error).message }, this.options.failure))
      .finally(() => (this.running = undefined));
  }
}
