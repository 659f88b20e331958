import type { z } from 'zod';
import type { Database } from '../db/database.ts';
import type { JobContext } from './job-runner.ts';
import * as jobs from './jobs.repository.ts';

/**
 * A sort of job: its name in the jobs table and the schema of its payload. The payload is checked
 * against it when the job is queued and again when a worker claims it, so a handler only ever sees a
 * payload of its own shape (a row written by an older release, or by hand, fails the job instead).
 */
export interface JobDefinition<Payload> {
  readonly name: string;
  readonly payload: z.ZodType<Payload>;
}

export function defineJob<Payload>(name: string, payload: z.ZodType<Payload>): JobDefinition<Payload> {
  return { name, payload };
}

export type JobHandler<Payload> = (context: JobContext, payload: Payload) => Promise<void>;

/** A definition with the handler that runs it; a runner is given a list of these. */
export interface JobRegistration {
  readonly definition: JobDefinition<unknown>;
  readonly handler: JobHandler<unknown>;
}

export function registerJob<Payload>(
  definition: JobDefinition<Payload>,
  handler: JobHandler<Payload>,
): JobRegistration {
  return { definition, handler } as JobRegistration;
}

export interface NewJob<Payload> {
  ownerId: string;
  /** What the job is about, for finding an owner's latest job of a sort (an import of notices: 'notice'). */
  subject: string;
  payload: Payload;
  maxAttempts: number;
}

/** Queues a job to run now; answers its id. A payload that does not fit the definition throws. */
export async function enqueue<Payload>(
  db: Database,
  definition: JobDefinition<Payload>,
  job: NewJob<Payload>,
): Promise<string> {
  const payload = definition.payload.parse(job.payload);
  return jobs.enqueueJob(db, { ...job, kind: definition.name, payload });
}
