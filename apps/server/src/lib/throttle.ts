/**
 * Counts failures per key in a fixed window. Kept in memory: with several API processes each
 * enforces its own window, so the effective limit is at most processes × limit.
 */
export class FailureThrottle {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
  ) {}

  /** Seconds until the key may try again, or 0 when it may try now. */
  retryAfter(key: string, now = Date.now()): number {
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) return 0;
    return window.count >= this.maxFailures ? Math.ceil((window.resetAt - now) / 1000) : 0;
  }

  fail(key: string, now = Date.now()): void {
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (this.windows.size > 100_000) this.sweep(now);
      this.windows.set(key, { count: 1, resetAt: now + this.windowMs });
    } else {
      window.count += 1;
    }
  }

  clear(key: string): void {
    this.windows.delete(key);
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
