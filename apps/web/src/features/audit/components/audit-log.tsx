import { useCallback, useMemo, useState } from 'react';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { auditActionLabels, type AuditEntry } from '@notice-desk/contract/audit';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { pagedTableProps } from '../../../components/ui/table-query.ts';
import { usePagination } from '../../../hooks/use-pagination.ts';
import { readApiProblem } from '../../../lib/api-error.ts';
import { useGetAuditLogQuery } from '../api/audit-api.ts';
import { editActions } from '../utils/audit-changes.ts';
import { AuditChanges } from './audit-changes.tsx';
import { AuditFilters, noAuditFilters, type AuditFilterValues } from './audit-filters.tsx';
import styles from './audit-log.module.css';

/** The server serves at most 100 entries a page. */
const PAGE_SIZES = [25, 50, 100] as const;

export const NO_AUDIT_ENTRIES = 'No audit entries match these filters';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * To the second (two edits a minute apart must read apart), in the server's TIME_ZONE: every ADMIN
 * reads the same time for an entry, whatever zone their computer is set to. The browser's own zone
 * only until the server has said which.
 */
export const auditTime = (at: string, timeZone?: string) =>
  (timeZone ? dayjs(at).tz(timeZone) : dayjs(at)).format('D MMM YYYY, HH:mm:ss');

// Made once per zone: the table re-renders every row when its columns change.
const auditColumns = (timeZone: string | undefined): DataTableColumn<AuditEntry>[] => [
  {
    id: 'at',
    header: timeZone ? `Time (${timeZone})` : 'Time',
    className: styles.nowrap,
    // A card's whole width on a phone: on one line it is wider than half a card, and ran into 'Who'.
    card: 'wide',
    cell: (entry) => <time dateTime={entry.at}>{auditTime(entry.at, timeZone)}</time>,
  },
  {
    id: 'actor',
    header: 'Who',
    cell: (entry) =>
      entry.actor ? (
        <>
          {entry.actor.name}{' '}
          <span className={styles.username}>
            ({entry.actor.username}
            {/* A renamed user: the name this was done under, beside the name now. */}
            {entry.actor.usernameThen && entry.actor.usernameThen !== entry.actor.username
              ? `, then ${entry.actor.usernameThen}`
              : ''}
            )
          </span>
        </>
      ) : (
        <span className={styles.username}>System</span>
      ),
  },
  { id: 'action', header: 'Action', cell: (entry) => auditActionLabels[entry.action] ?? entry.action },
  { id: 'summary', header: 'Summary', cell: (entry) => entry.summary },
  {
    id: 'changes',
    header: 'Changes',
    cell: (entry) => (editActions.has(entry.action) ? <AuditChanges entry={entry} /> : null),
  },
];

/** The query's filters: only those that are set. */
const queryFilters = ({ action, actor, from, to }: AuditFilterValues) => ({
  ...(action && { action }),
  ...(actor && { actor }),
  ...(from && { from }),
  ...(to && { to }),
});

/** /audit-log (ADMIN only): who did what and when, newest first, filtered and paged. */
export function AuditLog() {
  const paging = usePagination(PAGE_SIZES[0]);
  const [filters, setFilters] = useState<AuditFilterValues>(noAuditFilters);
  // Every visit asks again: the log grows with everything anyone does.
  const query = useGetAuditLogQuery(
    { page: paging.page, limit: paging.limit, ...queryFilters(filters) },
    { refetchOnMountOrArgChange: true },
  );

  const timeZone = query.data?.timeZone;
  const columns = useMemo(() => auditColumns(timeZone), [timeZone]);

  const { setPage } = paging;
  const applyFilters = useCallback(
    (next: AuditFilterValues) => {
      setFilters(next);
      setPage(1);
    },
    [setPage],
  );

  return (
    <>
      <AuditFilters applied={filters} onApply={applyFilters} />
      <DataTable
        label="Audit entries"
        columns={columns}
        {...pagedTableProps(query, paging, PAGE_SIZES)}
        errorMessage={readApiProblem(query.error).message ?? 'The audit log could not be loaded.'}
        emptyMessage={NO_AUDIT_ENTRIES}
      />
    </>
  );
}
