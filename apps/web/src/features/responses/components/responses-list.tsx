import { useCallback, useMemo } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import type { NoticeResponseItem, NoticeResponseKind } from '@notice-desk/contract/notice-page';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { DownloadButton } from '../../../components/ui/download-button.tsx';
import { paths } from '../../../config/paths.ts';
import { usePagination } from '../../../hooks/use-pagination.ts';
import { readApiProblem, toastApiProblem } from '../../../lib/api-error.ts';
import { useGetResponsesQuery, useMarkResponseHandledMutation } from '../api/responses-api.ts';
import styles from './responses-list.module.css';

/** The server serves at most 100 responses a page. */
const PAGE_SIZES = [25, 50, 100] as const;

export const NO_RESPONSES =
  'No responses yet. Disputes, and requests to settle or to be called back, that recipients send from their notice pages will appear here.';

export const responseKindLabels: Record<NoticeResponseKind, string> = {
  dispute: 'Dispute',
  settle: 'Settle / pay',
  callback: 'Call back',
};

dayjs.extend(utc);
dayjs.extend(timezone);

/** DD-MM-YYYY HH:mm in the server's TIME_ZONE; the browser's own zone until the server says which. */
export const responseTime = (at: string, timeZone?: string) =>
  (timeZone ? dayjs(at).tz(timeZone) : dayjs(at)).format('DD-MM-YYYY HH:mm');

const responseId = (item: NoticeResponseItem) => item.id;

const recordHref = (item: NoticeResponseItem) =>
  item.recordKind === 'notice'
    ? paths.notices.edit.getHref(item.recordId)
    : paths.creditCards.edit.getHref(item.recordId);

type Columns = {
  timeZone?: string;
  onMarkHandled: (item: NoticeResponseItem) => void;
  marking: string | null;
};

const responseColumns = ({
  timeZone,
  onMarkHandled,
  marking,
}: Columns): DataTableColumn<NoticeResponseItem>[] => [
  {
    id: 'customer',
    header: 'Customer',
    card: 'title',
    cell: (item) => (
      <>
        <Link to={recordHref(item)}>{item.customerName || 'No name'}</Link>{' '}
        <span className={styles.reference}>{item.reference}</span>
      </>
    ),
  },
  { id: 'kind', header: 'Kind', cell: (item) => responseKindLabels[item.kind] ?? item.kind },
  {
    id: 'createdAt',
    header: timeZone ? `Received (${timeZone})` : 'Received',
    className: styles.nowrap,
    cell: (item) => <time dateTime={item.createdAt}>{responseTime(item.createdAt, timeZone)}</time>,
  },
  {
    id: 'text',
    header: 'Text',
    card: 'wide',
    // As text, always: a recipient may write anything, markup included.
    cell: (item) =>
      item.text ? <p className={styles.text}>{item.text}</p> : <span className={styles.none}>None</span>,
  },
  {
    id: 'file',
    header: 'File',
    cell: (item) =>
      item.file ? (
        <DownloadButton
          url={item.file.url}
          fileName={item.file.name}
          label="Download"
          busyLabel="Downloading…"
          small
          subject={`${item.file.name} from ${item.customerName}`}
          onFailed={(problem) => toastApiProblem(problem, 'The file could not be downloaded. Try again.')}
        />
      ) : (
        <span className={styles.none}>None</span>
      ),
  },
  {
    id: 'handled',
    header: 'Handled',
    card: 'actions',
    cell: (item) =>
      item.handled ? (
        <p className={styles.handled}>
          Handled by {item.handled.by} on{' '}
          <time dateTime={item.handled.at}>{responseTime(item.handled.at, timeZone)}</time>
        </p>
      ) : (
        <button
          type="button"
          className="button button-secondary button-small"
          disabled={marking === item.id}
          onClick={() => onMarkHandled(item)}
        >
          Mark handled<span className="visually-hidden"> ({item.customerName})</span>
        </button>
      ),
  },
];

/** /responses: what recipients answered on their notice pages, newest first, paged. */
export function ResponsesList() {
  const paging = usePagination(PAGE_SIZES[0]);
  // Every visit asks again: recipients answer at any time.
  const query = useGetResponsesQuery(
    { page: paging.page, limit: paging.limit },
    { refetchOnMountOrArgChange: true },
  );
  const [markHandled, marking] = useMarkResponseHandledMutation();
  const markingId = marking.isLoading ? (marking.originalArgs?.id ?? null) : null;

  const onMarkHandled = useCallback(
    async (item: NoticeResponseItem) => {
      try {
        await markHandled({ id: item.id }).unwrap();
        toast.success(
          `Marked handled: ${responseKindLabels[item.kind] ?? item.kind} from ${item.customerName}.`,
        );
      } catch (error) {
        toastApiProblem(error, 'The response could not be marked handled. Try again.');
      }
    },
    [markHandled],
  );

  const timeZone = query.data?.timeZone;
  const columns = useMemo(
    () =>
      responseColumns({ timeZone, onMarkHandled: (item) => void onMarkHandled(item), marking: markingId }),
    [timeZone, onMarkHandled, markingId],
  );

  return (
    <DataTable
      label="Responses"
      columns={columns}
      rows={query.data?.items ?? []}
      rowId={responseId}
      total={query.data?.total ?? 0}
      loading={query.isLoading}
      busy={query.isFetching}
      failed={query.isError}
      onRetry={() => void query.refetch()}
      page={paging.page}
      limit={paging.limit}
      pageSizes={PAGE_SIZES}
      onPageChange={paging.setPage}
      onLimitChange={paging.setLimit}
      errorMessage={readApiProblem(query.error).message ?? 'The responses could not be loaded.'}
      emptyMessage={NO_RESPONSES}
    />
  );
}
