/**
 * Writes asked for in the same turn of the event loop go to the database together: a send job's
 * messages in flight record their hand-overs and outcomes a batch per commit, not a commit each. Each
 * caller's promise settles once its own write is committed, or fails with its batch. A batch whose
 * write failed (one transaction, rolled back) is written again after each of `retryDelaysMs`: a
 * database that timed out a connection under load does not turn messages a provider took into failures.
 */
export class WriteBatch<T> {
  private waiting: { item: T; resolve: () => void; reject: (err: unknown) => void }[] = [];

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly retryDelaysMs: readonly number[] = [100, 1000],
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.waiting.length === 0) setImmediate(() => void this.flush());
      this.waiting.push({ item, resolve, reject });
    });
  }

  private async flush(): Promise<void> {
    const batch = this.waiting;
    this.waiting = [];
    const items = batch.map((waiting) => waiting.item);
    for (let attempt = 0; ; attempt += 1) {
      try {
        await this.write(items);
        for (const waiting of batch) waiting.resolve();
        return;
      } catch (err) {
        const delay = this.retryDelaysMs[attempt];
        if (delay === undefined) {
          for (const waiting of batch) waiting.reject(err);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }
}
