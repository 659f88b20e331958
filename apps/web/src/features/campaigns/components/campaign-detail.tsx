import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { CampaignRow, CampaignType, SingleCampaign } from '@notice-desk/contract/campaigns';
import type { SendSummary } from '@notice-desk/contract/sending';
import { serviceStatuses, type ServiceStatus } from '@notice-desk/contract/service-dates';
import { evidencePaths } from '@notice-desk/contract/evidence';
import { DownloadEvidenceButton } from '../../../components/deliveries/download-evidence-button.tsx';
import { DeliveryStatus } from '../../../components/deliveries/delivery-status.tsx';
import { DeliveryStatusLegend } from '../../../components/deliveries/delivery-status-legend.tsx';
import { FunnelChart } from '../../../components/deliveries/funnel-chart.tsx';
import { deliveryStatusWord } from '../../../components/deliveries/delivery-status-words.ts';
import { ContentLayout } from '../../../components/layout/content-layout.tsx';
import {
  DataTable,
  type DataTableColumn,
  type DataTableSelection,
} from '../../../components/ui/data-table.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { FilterSelect } from '../../../components/ui/filter-select.tsx';
import { ProgressBar } from '../../../components/ui/progress-bar.tsx';
import { paths } from '../../../config/paths.ts';
import { useListSearch } from '../../../hooks/use-list-search.ts';
import { usePagination } from '../../../hooks/use-pagination.ts';
import { isMissingRecord } from '../../../lib/api-error.ts';
import { formatListDate } from '../../../utils/format-date.ts';
import {
  useGetCampaignFunnelQuery,
  useGetCampaignQuery,
  useGetSendSummaryMutation,
} from '../api/campaigns-api.ts';
import { useGetFailedRowsQuery, type FailedRowsShow } from '../api/failed-rows-api.ts';
import { FAILED_STATUSES, useResendFailed } from '../hooks/use-resend-failed.ts';
import { useSendNotices } from '../hooks/use-send-notices.ts';
import { CampaignLegalBasis } from './campaign-legal-basis.tsx';
import { CampaignLadder } from './campaign-ladder.tsx';
import { DuplicatesNote } from './duplicates-note.tsx';
import { FailedRows, FAILED_ROWS_PAGE } from './failed-rows.tsx';
import { SendConfirmDialog } from './send-confirm-dialog.tsx';
import { ExportReportButton } from './export-report-button.tsx';
import styles from './campaign-detail.module.css';

/** The spec's campaign detail page sizes; 50 is the default. */
const PAGE_SIZES = [50, 100, 500, 1000, 10000] as const;

/** Pages up to this size render every row; the larger ones (500 to 10,000) only the rows in view. */
const VIRTUALIZE_FROM = 100;

/** The spec's title of the batch-send bar (it reads 'Import' though it follows a send: its caption says what it counts). */
const SEND_BAR_TITLE = 'Import File Progress Bar';

const rowId = (row: CampaignRow) => row._id;

// A module constant: the table re-renders every row when its columns change, and a page can hold 10,000.
const columns: DataTableColumn<CampaignRow>[] = [
  { id: 'number', header: 'No.', cell: (_row, rowNumber) => rowNumber, card: 'number' },
  { id: 'custName', header: 'Name', cell: (row) => row.custName, card: 'title' },
  { id: 'date', header: 'Date', cell: (row) => formatListDate(row.date) },
  {
    id: 'email',
    header: 'Email Status',
    card: 'wide',
    cell: (row) => (
      <ChannelStatus
        status={row.emailResponse}
        error={row.emailError}
        notServiceable={row.emailNotServiceable}
      />
    ),
  },
  {
    id: 'whatsapp',
    header: 'WhatsApp Status',
    card: 'wide',
    cell: (row) => (
      <ChannelStatus
        status={row.whatsappResponse}
        error={row.whatsappError}
        notServiceable={row.whatsappNotServiceable}
      />
    ),
  },
  {
    id: 'servedOn',
    header: 'Served on',
    cell: (row) => <ServedOn service={row.service} />,
  },
  { id: 'respondBy', header: 'Respond by', cell: (row) => row.service?.shown.respondBy ?? '-' },
];

/** With an SMS column after WhatsApp's: for a page where some record goes by SMS (issue 31). */
const columnsWithSms: DataTableColumn<CampaignRow>[] = [
  ...columns.slice(0, 5),
  {
    id: 'sms',
    header: 'SMS Status',
    card: 'wide',
    cell: (row) => (
      <ChannelStatus status={row.smsResponse ?? '-'} error={row.smsError} notServiceable={null} />
    ),
  },
  ...columns.slice(5),
];

/** The day the record counts as served (DD-MM-YYYY in TIME_ZONE), and under it the event that set it. */
function ServedOn({ service }: { service: CampaignRow['service'] }) {
  if (!service?.shown.servedOn) return <>-</>;
  return (
    <span title={service.servedBy ?? undefined}>
      {service.shown.servedOn}
      <br />
      <small>{service.servedBy}</small>
    </span>
  );
}

/** The service statuses in words: the filter's options and the counts' labels. */
const serviceStatusWords: Record<ServiceStatus, string> = {
  opened: 'Notice page opened',
  acknowledged: 'Acknowledged',
  disputed: 'Disputed',
  respond_by_passed: 'Respond-by date passed',
  respond_by_within_7_days: 'Respond-by date within 7 days',
};

/** Over the whole campaign: how many records are in each service status. */
function ServiceCounts({ counts }: { counts: NonNullable<SingleCampaign['serviceCounts']> }) {
  return (
    <p className={styles.notServiceable} aria-label="Service">
      {serviceStatuses.map((status, i) => (
        <span key={status}>
          {i > 0 && ' · '}
          {serviceStatusWords[status]} <strong>{counts[status]}</strong>
        </span>
      ))}
    </p>
  );
}

/**
 * A channel's latest status; a record not sent yet whose address cannot be served says so, with why
 * (the send will leave it out on that channel).
 */
function ChannelStatus({
  status,
  error,
  notServiceable,
}: {
  status: string;
  error: string | null | undefined;
  notServiceable: string | null | undefined;
}) {
  if ((status === '-' || status === '') && notServiceable)
    return <DeliveryStatus status="not_serviceable" error={notServiceable} />;
  return <DeliveryStatus status={status} error={error} />;
}

/** Over the whole campaign: records whose address on a channel they go on cannot be served. */
function NotServiceableCounts({ counts }: { counts: NonNullable<SingleCampaign['notServiceable']> }) {
  if (counts.email === 0 && counts.whatsapp === 0) return null;
  return (
    <p className={styles.notServiceable} aria-label="Not serviceable">
      Not serviceable by e-mail <strong>{counts.email}</strong> · Not serviceable by WhatsApp{' '}
      <strong>{counts.whatsapp}</strong>
    </p>
  );
}

const noSelection: ReadonlySet<string> = new Set();

/** The statuses counted above the table, in the order they happen. */
const COUNTED = [
  'queued',
  'sent',
  'delivered',
  'read',
  'failed',
  'bounced',
  'outbox',
  'not_serviceable',
] as const;
const CHANNELS = [
  { channel: 'email', label: 'Email' },
  { channel: 'whatsapp', label: 'WhatsApp' },
  { channel: 'sms', label: 'SMS' },
] as const;

/** Over the whole campaign: per channel, how many records' latest attempt is in each status. */
function StatusCounts({ counts }: { counts: NonNullable<SingleCampaign['statusCounts']> }) {
  return (
    <div className={styles.counts} aria-label="Statuses per channel">
      {CHANNELS.filter(({ channel }) => channel !== 'sms' || counts.some((c) => c.channel === 'sms')).map(
        ({ channel, label }) => (
          <dl key={channel} className={styles.countRow}>
            <dt>{label}</dt>
            {COUNTED.map((status) => (
              <dd key={status}>
                {deliveryStatusWord(status)}{' '}
                <strong>
                  {counts.find((c) => c.channel === channel && c.status === status)?.count ?? 0}
                </strong>
              </dd>
            ))}
          </dl>
        ),
      )}
    </div>
  );
}

/** How far the campaign's notices got; nothing while it loads or when it cannot be read (the table says why). */
function CampaignFunnel({ campaignId }: { campaignId: string }) {
  const { data } = useGetCampaignFunnelQuery(campaignId, { refetchOnMountOrArgChange: true });
  return data ? <FunnelChart funnel={data} /> : null;
}

const listHref = (type: CampaignType) =>
  type === 'notice' ? paths.campaigns.notices.getHref() : paths.campaigns.creditCards.getHref();

type CampaignDetailProps = {
  type: CampaignType;
  campaignId: string;
  /** Panels the app adds under the legal basis (the post panel), given the campaign's name once known. */
  panels?: (campaignName: string) => ReactNode;
};

/** /campaign/{type}/{id}: one campaign's records, paged, with row selection for sending and the report. */
export function CampaignDetail({ type, campaignId, panels }: CampaignDetailProps) {
  const { text: searchText, setText: setSearchText, search } = useListSearch();
  /** The statuses the table keeps rows of, on either channel (comma-separated); '' keeps every row. */
  const [statusFilter, setStatusFilter] = useState('');
  // The server filters the whole campaign: a new search or status has pages of its own, from page 1.
  const filterKey = `${search}\n${statusFilter}`;
  const { page, limit, setPage, setLimit } = usePagination(PAGE_SIZES[0], filterKey);
  const [selected, setSelected] = useState<ReadonlySet<string>>(noSelection);
  // A new search or filter shows other rows: like a new page, it starts the selection again.
  const [selectedWithin, setSelectedWithin] = useState(filterKey);
  if (selectedWithin !== filterKey) {
    setSelectedWithin(filterKey);
    setSelected(noSelection);
  }
  const { data, error, isLoading, isFetching, isError, refetch } = useGetCampaignQuery({
    id: campaignId,
    page,
    limit,
    search,
    status: statusFilter,
  });

  // The spec: changing the page or the page size clears the selection.
  const changePage = useCallback(
    (next: number) => {
      setSelected(noSelection);
      setPage(next);
    },
    [setPage],
  );
  const changeLimit = useCallback(
    (next: number) => {
      setSelected(noSelection);
      setLimit(next);
    },
    [setLimit],
  );
  const selection = useMemo<DataTableSelection>(() => ({ selected, onChange: setSelected }), [selected]);
  const {
    send,
    sending,
    progress,
    caption,
    rate,
    summary,
    dismissSummary,
    bouncedQuestion,
    answerBouncedQuestion,
  } = useSendNotices(type);
  const resendFailed = useResendFailed(campaignId, send);
  // The failed rows' list and its filter; 'Resend failed' tells how many still have the address that failed.
  const [failedShow, setFailedShow] = useState<FailedRowsShow>('all');
  const { data: failedRows } = useGetFailedRowsQuery({ campaignId, ...FAILED_ROWS_PAGE, show: failedShow });
  const showUnchangedFirst = () => {
    resendFailed.cancel();
    setFailedShow('unchanged');
    document.getElementById('failed-rows')?.scrollIntoView({ block: 'start' });
  };
  // Before a bulk send (more records than BULK_SEND_CONFIRM_THRESHOLD): the counts per channel, confirmed.
  const [getSendSummary, { isLoading: summing }] = useGetSendSummaryMutation();
  const [confirming, setConfirming] = useState<{ ids: string[]; summary: SendSummary } | null>(null);
  const sendSelected = async () => {
    const ids = [...selected];
    if (ids.length === 0) return void send(ids);
    const summary = await getSendSummary({ campaignId, ids })
      .unwrap()
      .catch(() => null);
    // Without the counts the send goes as it always did; the server still asks about what it must.
    if (summary && summary.records > summary.threshold) setConfirming({ ids, summary });
    else void send(ids);
  };

  // A campaign of the other kind is not this page's either.
  if ((isError && isMissingRecord(error)) || (data && data.type !== type)) {
    return (
      <ContentLayout title="Campaign Details">
        <div className="state-message panel" role="alert">
          <p>Campaign not found.</p>
          <Link to={listHref(type)}>Back to the campaign history</Link>
        </div>
      </ContentLayout>
    );
  }

  const rows = (type === 'notice' ? data?.notices : data?.creditCards) ?? [];
  // Over the whole campaign: whether any record's latest attempt on a channel failed or bounced.
  const anyFailed =
    data?.statusCounts?.some((c) => (c.status === 'failed' || c.status === 'bounced') && c.count > 0) ?? true;
  const resendCount = resendFailed.failedIds?.length ?? 0;
  return (
    <ContentLayout title={data?.name ?? 'Campaign Details'}>
      <div className="page-actions">
        <button
          type="button"
          className={`button button-primary ${styles.sendNotice}`}
          disabled={sending || summing}
          aria-busy={sending || summing}
          onClick={() => void sendSelected()}
        >
          Send Notice
        </button>
        <button
          type="button"
          className="button button-secondary"
          disabled={sending || resendFailed.finding || !anyFailed}
          aria-busy={resendFailed.finding}
          onClick={() => void resendFailed.ask()}
        >
          Resend failed
        </button>
        <ExportReportButton type={type} campaignId={campaignId} campaignName={data?.name ?? null} />
        <DownloadEvidenceButton
          url={evidencePaths.campaign(campaignId)}
          fileName={`evidence ${data?.name ?? campaignId}.zip`}
          subject={data?.name ?? 'this campaign'}
        />
      </div>
      {data?.statusCounts && <StatusCounts counts={data.statusCounts} />}
      {data?.notServiceable && <NotServiceableCounts counts={data.notServiceable} />}
      <CampaignFunnel campaignId={campaignId} />
      {data?.serviceCounts && <ServiceCounts counts={data.serviceCounts} />}
      {data && <CampaignLegalBasis campaignId={campaignId} basis={data.legalBasis ?? null} />}
      {data && <CampaignLadder campaignId={campaignId} />}
      {data && panels?.(data.name)}
      <DuplicatesNote duplicates={data?.duplicates} />
      <DeliveryStatusLegend />
      <FailedRows type={type} campaignId={campaignId} show={failedShow} onShowChange={setFailedShow} />
      {progress !== null && <ProgressBar label={SEND_BAR_TITLE} value={progress} caption={caption} />}
      {progress !== null && rate && <p className={styles.sendRate}>{rate}</p>}
      {/* Always present, so what a send came to is announced when it appears. */}
      <div role="status" className={summary ? styles.summary : undefined}>
        {summary && (
          <>
            <p>{summary}</p>
            <button type="button" className="button button-secondary button-small" onClick={dismissSummary}>
              Dismiss
            </button>
          </>
        )}
      </div>
      <FilterSelect
        className={styles.statusFilter}
        label="Show"
        value={statusFilter}
        onChange={setStatusFilter}
      >
        <option value="">Every status</option>
        <option value={FAILED_STATUSES}>failed or bounced (e-mail or WhatsApp)</option>
        {COUNTED.map((status) => (
          <option key={status} value={status}>
            {deliveryStatusWord(status)} (e-mail or WhatsApp)
          </option>
        ))}
        {serviceStatuses.map((status) => (
          <option key={status} value={status}>
            {serviceStatusWords[status]}
          </option>
        ))}
      </FilterSelect>
      <DataTable
        label="Campaign records"
        columns={rows.some((row) => row.smsResponse !== undefined) ? columnsWithSms : columns}
        rows={rows}
        rowId={rowId}
        page={page}
        limit={limit}
        total={data?.total ?? 0}
        pageSizes={PAGE_SIZES}
        onPageChange={changePage}
        onLimitChange={changeLimit}
        serverSearch={{ text: searchText, onTextChange: setSearchText, searchedFor: search }}
        selection={selection}
        loading={isLoading}
        busy={isFetching}
        failed={isError}
        errorMessage="The campaign could not be loaded."
        onRetry={() => void refetch()}
        emptyMessage="This campaign has no records."
        virtualizeFrom={VIRTUALIZE_FROM}
      />
      {/* Room for Send Notice, which a phone keeps at the foot of the screen. */}
      <div className={styles.sendNoticeRoom} />
      <ConfirmDialog
        open={resendFailed.failedIds !== null}
        question={`Resend the ${resendCount} ${resendCount === 1 ? 'record' : 'records'} that failed or bounced?`}
        confirmLabel="Resend"
        onConfirm={resendFailed.confirm}
        onCancel={resendFailed.cancel}
      >
        <p>Each is sent again on the channels that failed or bounced, from every page of the campaign.</p>
        {failedRows !== undefined && failedRows.unchanged > 0 && (
          <p>
            {failedRows.unchanged} of the failed{' '}
            {failedRows.unchanged === 1 ? 'row still has' : 'rows still have'} the address that failed: sent
            there again, {failedRows.unchanged === 1 ? 'it' : 'they'} will likely fail again.{' '}
            <button
              type="button"
              className="button button-secondary button-small"
              onClick={showUnchangedFirst}
            >
              Show them first
            </button>
          </p>
        )}
      </ConfirmDialog>
      <SendConfirmDialog
        campaignId={campaignId}
        summary={confirming?.summary ?? null}
        recordId={confirming?.ids[0]}
        onConfirm={() => {
          const ids = confirming?.ids ?? [];
          setConfirming(null);
          // The counts said who was served recently: the send does not ask about them again.
          void send(ids, { confirmServedRecently: true });
        }}
        onCancel={() => setConfirming(null)}
      />
      <ConfirmDialog
        open={bouncedQuestion !== null}
        question={bouncedQuestion ?? ''}
        confirmLabel="Send anyway"
        cancelLabel="Don't send"
        onConfirm={() => answerBouncedQuestion(true)}
        onCancel={() => answerBouncedQuestion(false)}
      />
    </ContentLayout>
  );
}
