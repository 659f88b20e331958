/**
 * Writes asked for in the same turn of the event loop go to the database together: a send job's
 * messages in flight record their hand-overs and outcomes a batch per commit, not a commit each. Each
 * caller's promise settles once its own write is committed, or fails with its batch.
 */
export class WriteBatch<T> {
  private waiting: { item: T; resolve: () => void; reject: (err: unknown) => void }[] = [];

  constructor(private readonly write: (items: T[]) => Promise<void>) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.waiting.length === 0) setImmediate(() => void this.flush());
      this.waiting.push({ item, resolve, reject });
    });
  }

  private async flush(): Promise<void> {
    const batch = this.waiting;
    this.waiting = [];
    try {
      await this.write(batch.map((waiting) => waiting.item));
      for (const waiting of batch) waiting.resolve();
    } catch (err) {
      for (const waiting of batch) waiting.reject(err);
    }
  }
}
