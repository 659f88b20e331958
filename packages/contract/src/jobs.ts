import { z } from 'zod';
import { pagingQuery } from './paging.ts';

export const jobStates = ['queued', 'running', 'done', 'failed'] as const;
export type JobState = (typeof jobStates)[number];
export const jobKinds = ['import', 'send'] as const;
export type JobKind = (typeof jobKinds)[number];

/** GET /api/jobs: the ADMIN's job list, newest first, optionally of one kind or state. */
export const jobListQuery = pagingQuery({ limit: 25, limitMax: 100 }).extend({
  kind: z
    .enum(jobKinds, { error: 'kind must be import or send.' })
    .optional()
    .describe('Only jobs of this kind.'),
  state: z
    .enum(jobStates, { error: `state must be one of ${jobStates.join(', ')}.` })
    .optional()
    .describe('Only jobs in this state.'),
});
export type JobListQuery = z.infer<typeof jobListQuery>;

export const jobListItem = z.object({
  _id: z.string(),
  kind: z.string(),
  state: z.enum(jobStates),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  /** The last failure's message (a job that retries keeps it until it succeeds); null when none. */
  lastError: z.string().nullable(),
  progress: z.number().int(),
  /** ISO times. */
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Seconds since it was queued, on the server's clock when the list was read. */
  ageSeconds: z.number().int(),
});
export type JobListItem = z.infer<typeof jobListItem>;

export const jobList = z.object({
  items: z.array(jobListItem),
  total: z.number().int(),
  /** The server's TIME_ZONE, in which the screen shows times. */
  timeZone: z.string(),
});
export type JobList = z.infer<typeof jobList>;
