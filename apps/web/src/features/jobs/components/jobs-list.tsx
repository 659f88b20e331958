import { useMemo, useState, type ChangeEvent } from 'react';
import {
  jobKinds,
  jobStates,
  type JobKind,
  type JobListItem,
  type JobState,
} from '@notice-desk/contract/jobs';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { pagedTableProps } from '../../../components/ui/table-query.ts';
import { usePagination } from '../../../hooks/use-pagination.ts';
import { readApiProblem } from '../../../lib/api-error.ts';
import { useGetJobsQuery } from '../api/jobs-api.ts';
import { jobAge, jobKindLabels, jobStateLabels, jobTime } from '../utils/job-words.ts';
import styles from './jobs-list.module.css';

/** The server serves at most 100 jobs a page. */
const PAGE_SIZES = [25, 50, 100] as const;

export const NO_JOBS = 'No jobs yet. Imports and sends are listed here from the moment they are queued.';
export const NO_MATCHING_JOBS =
  'No jobs match these filters. Choose All kinds and All states to see every job.';

const kindOptions = [
  { value: '', label: 'All kinds' },
  ...jobKinds.map((kind) => ({ value: kind, label: jobKindLabels[kind] })),
];
const stateOptions = [
  { value: '', label: 'All states' },
  ...jobStates.map((state) => ({ value: state, label: jobStateLabels[state] })),
];

const isKind = (value: string): value is JobKind => (jobKinds as readonly string[]).includes(value);
const isState = (value: string): value is JobState => (jobStates as readonly string[]).includes(value);

const stateClass: Partial<Record<JobState, string>> = { failed: styles.failed, running: styles.running };

// Made once per zone: the table re-renders every row when its columns change.
const jobColumns = (timeZone: string | undefined): DataTableColumn<JobListItem>[] => [
  {
    id: 'kind',
    header: 'Kind',
    card: 'title',
    cell: (job) => jobKindLabels[job.kind as JobKind] ?? job.kind,
  },
  {
    id: 'state',
    header: 'State',
    cell: (job) => (
      <span className={[styles.state, stateClass[job.state]].filter(Boolean).join(' ')}>
        {jobStateLabels[job.state]}
      </span>
    ),
  },
  {
    id: 'queued',
    header: timeZone ? `Queued (${timeZone})` : 'Queued',
    className: styles.nowrap,
    cell: (job) => <time dateTime={job.createdAt}>{jobTime(job.createdAt, timeZone)}</time>,
  },
  { id: 'age', header: 'Age', className: styles.nowrap, cell: (job) => jobAge(job.ageSeconds) },
  {
    id: 'attempts',
    header: 'Attempts',
    className: styles.nowrap,
    cell: (job) => `${job.attempts} of ${job.maxAttempts}`,
  },
  {
    id: 'progress',
    header: 'Progress',
    className: styles.nowrap,
    cell: (job) => `${job.progress}%`,
  },
  {
    id: 'error',
    header: 'Last error',
    card: 'wide',
    cell: (job) =>
      job.lastError ? (
        <span className={styles.error}>{job.lastError}</span>
      ) : (
        <span className={styles.none}>None</span>
      ),
  },
];

/** /jobs (ADMIN only): every user's imports and sends, newest first, by kind and state, paged. */
export function JobsList() {
  const paging = usePagination(PAGE_SIZES[0]);
  const [kind, setKind] = useState<JobKind | ''>('');
  const [state, setState] = useState<JobState | ''>('');
  // Every visit asks again: jobs move on by themselves.
  const query = useGetJobsQuery(
    { page: paging.page, limit: paging.limit, ...(kind && { kind }), ...(state && { state }) },
    { refetchOnMountOrArgChange: true },
  );
  const timeZone = query.data?.timeZone;
  const columns = useMemo(() => jobColumns(timeZone), [timeZone]);
  const { setPage } = paging;
  /** A filter's choice ('' for any, or a value it does not know), from the first page again. */
  const choose =
    <TValue extends string>(set: (value: TValue | '') => void, known: (value: string) => value is TValue) =>
    (event: ChangeEvent<HTMLSelectElement>) => {
      set(known(event.target.value) ? event.target.value : '');
      setPage(1);
    };
  const filters = [
    { label: 'Kind', name: 'kind', options: kindOptions, value: kind, onChange: choose(setKind, isKind) },
    {
      label: 'State',
      name: 'state',
      options: stateOptions,
      value: state,
      onChange: choose(setState, isState),
    },
  ];

  return (
    <>
      <form
        className={`panel ${styles.filters}`}
        aria-label="Job filters"
        onSubmit={(e) => e.preventDefault()}
      >
        {filters.map((filter) => (
          <SelectField key={filter.name} {...filter} />
        ))}
        <button
          type="button"
          className={`button button-secondary ${styles.refresh}`}
          onClick={() => void query.refetch()}
        >
          Refresh
        </button>
      </form>
      <DataTable
        label="Jobs"
        columns={columns}
        {...pagedTableProps(query, paging, PAGE_SIZES)}
        errorMessage={readApiProblem(query.error).message ?? 'The job list could not be loaded.'}
        emptyMessage={kind || state ? NO_MATCHING_JOBS : NO_JOBS}
      />
    </>
  );
}
