import type { JobList, JobListQuery } from '@notice-desk/contract/jobs';
import { api } from '../../../lib/api.ts';

/** What the screen asks for: a page, and only the filters that are set. */
export type JobListArgs = Pick<JobListQuery, 'page' | 'limit'> &
  Partial<Pick<JobListQuery, 'kind' | 'state'>>;

export const jobsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getJobs: build.query<JobList, JobListArgs>({
      query: ({ page, limit, kind, state }) => ({
        url: '/api/jobs',
        params: { page, limit, ...(kind && { kind }), ...(state && { state }) },
      }),
    }),
  }),
});

export const { useGetJobsQuery } = jobsApi;
