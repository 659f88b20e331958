import { EventEmitter } from 'node:events';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import { newId } from '../lib/ids.ts';
import { nowIso } from '../lib/time.ts';
import type { JobRegistration } from './job-definition.ts';
import * as jobs from './jobs.repository.ts';

/** A failure that retrying cannot mend (a broken file, a refused address): the job fails at once. */
export class PermanentJobError extends Error {}

/** Thrown by a job that must wait until a given time (sending hours closed): it runs again then. */
export class RetryAtError extends Error {
  constructor(
    message: string,
    readonly at: Date,
  ) {
    super(message);
  }
}

export interface JobContext {
  job: jobs.JobRow;
  workerId: string;
  /** Reports 0..100; written at most once a second. */
  progress(percent: number): Promise<void>;
  /** Marks the job done inside the caller's transaction, so its effects and its completion commit together. */
  complete(trx: Database, result: unknown): Promise<void>;
  /** Aborted when the runner stops or loses the job's lease. */
  signal: AbortSignal;
}

export interface JobRunnerOptions {
  db: Database;
  /** The sorts of job this runner takes, each with its handler. */
  jobs: JobRegistration[];
  log: FastifyBaseLogger;
  /** At least 5 s (JOB_LEASE); renewed every third of it. */
  leaseMs?: number;
  pollMs?: number;
  /** The wait before a failed job's first retry (doubling after); 2 s unless told. */
  retryBackoffMs?: number;
  /**
   * Jobs run side by side by this runner: one number for all kinds together, or a number per kind
   * (JOB_CONCURRENCY, `{ import: 1, send: 4 }`), each kind in slots of its own, so an import never
   * waits behind sends. A kind left out of the map runs one at a time.
   */
  concurrency?: number | Record<string, number>;
  /** The jitter of retry waits (0..1); Math.random unless told. */
  random?: () => number;
  /** Told how each attempt ended (done, retry, failed for good, lost) and how long it ran: /metrics counts it. */
  onOutcome?: (kind: string, outcome: JobOutcome, seconds: number) => void;
}

export type JobOutcome = 'done' | 'retry' | 'failed' | 'lost';

/** Thrown inside complete() when another worker took the job over: the caller's transaction rolls back. */
class LostLeaseError extends Error {}

/**
 * Claims jobs from the jobs table and runs them. Any number of runners, in any processes, may share
 * one database: a claim is atomic, a lease is renewed while the job runs, and a job whose runner died
 * is claimed again once its lease runs out. Failures retry with exponential backoff up to max_attempts.
 */
export class JobRunner extends EventEmitter<{ settled: [jobId: string] }> {
  readonly workerId = `${hostname()}:${process.pid}:${newId().slice(-8)}`;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  /** Slots per kind; undefined: one pool of `total` slots shared by every kind. */
  private readonly perKind: Record<string, number> | undefined;
  private readonly total: number;
  private readonly registrations: Map<string, JobRegistration>;
  private readonly stopping = new AbortController();
  private readonly running = new Set<Promise<void>>();
  private readonly runningByKind = new Map<string, number>();
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;

  constructor(private readonly options: JobRunnerOptions) {
    super();
    this.setMaxListeners(0);
    this.registrations = new Map(options.jobs.map((job) => [job.definition.name, job]));
    this.leaseMs = options.leaseMs ?? 30_000;
    this.pollMs = options.pollMs ?? 1000;
    const concurrency = options.concurrency ?? 1;
    this.perKind = typeof concurrency === 'number' ? undefined : concurrency;
    this.total = typeof concurrency === 'number' ? concurrency : Infinity;
  }

  /** The kinds this runner could start a job of now (a free slot of its own). */
  private freeKinds(): string[] {
    const kinds = [...this.registrations.keys()];
    if (!this.perKind) return this.running.size < this.total ? kinds : [];
    return kinds.filter((kind) => (this.runningByKind.get(kind) ?? 0) < (this.perKind![kind] ?? 1));
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** Looks for work now rather than at the next poll (called after enqueueing in this process). */
  nudge(): void {
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    this.nudge();
    await this.loop;
    await Promise.allSettled([...this.running]);
  }

  private async run(): Promise<void> {
    while (!this.stopping.signal.aborted) {
      let claimed: jobs.JobRow | undefined;
      const kinds = this.freeKinds();
      if (kinds.length > 0) {
        try {
          claimed = await jobs.claimJob(this.options.db, kinds, this.workerId, this.leaseMs);
        } catch (err) {
          this.options.log.warn({ err }, 'job claim failed; retrying');
        }
      }
      if (claimed) {
        const kind = claimed.kind;
        this.runningByKind.set(kind, (this.runningByKind.get(kind) ?? 0) + 1);
        const task = this.execute(claimed).finally(() => {
          this.running.delete(task);
          this.runningByKind.set(kind, this.runningByKind.get(kind)! - 1);
          this.nudge();
        });
        this.running.add(task);
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.pollMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  private async execute(job: jobs.JobRow): Promise<void> {
    const { db, log } = this.options;
    if (job.attempts > job.max_attempts) {
      const died =
        job.lost_leases > 0
          ? `: the process running it stopped ${job.lost_leases === 1 ? 'once' : `${job.lost_leases} times`} while it ran`
          : '';
      await jobs.failJob(
        db,
        job.id,
        this.workerId,
        job.error ?? `Gave up after ${job.max_attempts} attempts${died}.`,
        null,
        nowIso(),
      );
      return;
    }
    const { definition, handler } = this.registrations.get(job.kind)!;
    const parsed = parsePayload(definition.payload, job.payload);
    if (!parsed.success) {
      log.error({ jobId: job.id, kind: job.kind }, 'job payload does not fit its schema; the job fails');
      await jobs.failJob(db, job.id, this.workerId, parsed.error, null, nowIso()).catch(() => undefined);
      this.emit('settled', job.id);
      return;
    }
    const started = Date.now();
    const outcome = (how: JobOutcome) =>
      this.options.onOutcome?.(job.kind, how, (Date.now() - started) / 1000);
    const lease = new AbortController();
    const abortOnStop = () => lease.abort();
    this.stopping.signal.addEventListener('abort', abortOnStop);
    // A renewal still waiting (for SQLite's write lock, say) when the attempt ends answers too late to
    // matter: the attempt's own end (done, failed, retry) is not a takeover.
    let settled = false;
    let renewedAt = Date.now();
    const renew = setInterval(() => {
      jobs.renewLease(db, job.id, this.workerId, this.leaseMs).then(
        (renewal) => {
          if (renewal === 'held') renewedAt = Date.now();
          if (renewal === 'held' || settled) return;
          if (renewal === 'ended') {
            // Finished in a transaction of its own (an import's hand-over thread): nothing to renew.
            clearInterval(renew);
            return;
          }
          log.warn({ jobId: job.id }, 'job lease taken over by another worker; stopping this attempt');
          lease.abort();
        },
        // Unable to renew, the lease will run out and another worker take the job over: this one
        // stops rather than work on beside it. A renewal refused while the lease still has time (SQLite
        // busy behind an import's hand-over on another connection) is tried again at the next tick.
        (err: unknown) => {
          if (settled) return;
          if (Date.now() - renewedAt < (this.leaseMs * 2) / 3) {
            log.warn({ err, jobId: job.id }, 'job lease renewal failed; trying again while the lease lasts');
            return;
          }
          log.error({ err, jobId: job.id }, 'job lease renewal failed; stopping this attempt');
          lease.abort();
        },
      );
    }, this.leaseMs / 3);
    let lastProgress = 0;
    let completed = false;
    const context: JobContext = {
      job,
      workerId: this.workerId,
      signal: lease.signal,
      progress: async (percent) => {
        if (Date.now() - lastProgress < 1000) return;
        lastProgress = Date.now();
        await jobs.setJobProgress(db, job.id, this.workerId, Math.max(0, Math.min(99, Math.floor(percent))));
      },
      complete: async (trx, result) => {
        if (!(await jobs.completeJob(trx, job.id, this.workerId, result, nowIso())))
          throw new LostLeaseError();
        completed = true;
      },
    };
    try {
      await handler(context, parsed.payload);
      settled = true;
      if (!completed) await jobs.completeJob(db, job.id, this.workerId, null, nowIso());
      outcome('done');
    } catch (err) {
      settled = true;
      if (err instanceof LostLeaseError || lease.signal.aborted) {
        outcome('lost');
        log.warn({ jobId: job.id }, 'job lease lost or runner stopping; another attempt will finish it');
      } else {
        const message = err instanceof Error ? err.message : String(err);
        // Waiting for the sending hours is not a failure: it never uses up the job's attempts.
        const permanent =
          err instanceof PermanentJobError ||
          (job.attempts >= job.max_attempts && !(err instanceof RetryAtError));
        const retry: jobs.Retry = permanent
          ? null
          : err instanceof RetryAtError
            ? { at: err.at }
            : { afterMs: backoffMs(job.attempts, this.options.retryBackoffMs, this.options.random) };
        outcome(permanent ? 'failed' : 'retry');
        if (!permanent) log.warn({ err, jobId: job.id }, 'job failed; it will retry');
        await jobs.failJob(db, job.id, this.workerId, message, retry, nowIso()).catch(() => undefined);
      }
    } finally {
      settled = true;
      clearInterval(renew);
      this.stopping.signal.removeEventListener('abort', abortOnStop);
      // Done, failed or waiting to retry: whoever waits on this job in this process may look now.
      this.emit('settled', job.id);
    }
  }
}

/**
 * The wait after a job's `attempt`-th failure: `first` (2 s), then twice that each time (4 s, 8 s …),
 * at most 5 minutes; jittered (the upper half of it drawn at random, "equal jitter"), so jobs that
 * failed together (a provider's outage) do not all come back in the same instant.
 */
export function backoffMs(attempt: number, first = 2000, random: () => number = Math.random): number {
  const base = Math.min(300_000, first * 2 ** (attempt - 1));
  return Math.round(base / 2 + (base / 2) * random());
}

function parsePayload(
  schema: z.ZodType<unknown>,
  text: string,
): { success: true; payload: unknown } | { success: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { success: false, error: 'The job could not be run: its payload is not JSON.' };
  }
  const result = schema.safeParse(value);
  return result.success
    ? { success: true, payload: result.data }
    : { success: false, error: `The job could not be run: ${z.prettifyError(result.error)}` };
}
