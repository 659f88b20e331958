import { useId } from 'react';
import dayjs from 'dayjs';
import { archivePaths, type ArchivedCampaign, type ArchivedRecord } from '@notice-desk/contract/archive';
import type { CampaignType } from '@notice-desk/contract/campaigns';
import { DownloadEvidenceButton } from '../../../components/deliveries/download-evidence-button.tsx';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { pagedTableProps } from '../../../components/ui/table-query.ts';
import { usePagination } from '../../../hooks/use-pagination.ts';
import { useGetArchivedCampaignsQuery, useGetArchivedRecordsQuery } from '../api/archive-api.ts';

/** The server serves at most 100 a page. */
const PAGE_SIZES = [25, 50, 100] as const;

export const NO_ARCHIVED_RECORDS = 'Nothing archived: no deleted record had been sent.';
export const NO_ARCHIVED_CAMPAIGNS = 'No archived campaigns.';

/** Local time, to the minute. */
export const archivedTime = (at: string) => dayjs(at).format('D MMM YYYY, HH:mm');

const recordColumns = (kind: CampaignType): DataTableColumn<ArchivedRecord>[] => [
  { id: 'number', header: 'No.', cell: (_record, rowNumber) => rowNumber, card: 'number' },
  { id: 'custName', header: 'Name', cell: (record) => record.custName, card: 'title' },
  {
    id: 'reference',
    header: kind === 'notice' ? 'Loan No.' : 'Maskcard',
    cell: (record) => record.reference,
  },
  { id: 'owner', header: 'Owner', cell: (record) => record.owner.username },
  { id: 'campaign', header: 'Campaign', cell: (record) => record.campaignName ?? '-' },
  {
    id: 'archivedAt',
    header: 'Archived',
    cell: (record) => <time dateTime={record.archivedAt}>{archivedTime(record.archivedAt)}</time>,
  },
  {
    id: 'action',
    header: 'Action',
    card: 'actions',
    cell: (record) => (
      <DownloadEvidenceButton
        url={archivePaths.recordEvidence(kind, record._id)}
        fileName={`evidence ${record.custName || record._id}.zip`}
        subject={record.custName || record.reference}
      />
    ),
  },
];

// Module constants: the table re-renders every row when its columns change.
const columnsByKind: Record<CampaignType, DataTableColumn<ArchivedRecord>[]> = {
  notice: recordColumns('notice'),
  'credit-card': recordColumns('credit-card'),
};

const campaignColumns: DataTableColumn<ArchivedCampaign>[] = [
  { id: 'number', header: 'No.', cell: (_campaign, rowNumber) => rowNumber, card: 'number' },
  { id: 'name', header: 'History Name', cell: (campaign) => campaign.name, card: 'title' },
  {
    id: 'type',
    header: 'Kind',
    cell: (campaign) => (campaign.type === 'notice' ? 'Notice' : 'Credit Card'),
  },
  { id: 'owner', header: 'Owner', cell: (campaign) => campaign.owner.username },
  { id: 'records', header: 'Records', cell: (campaign) => campaign.records },
  {
    id: 'archivedAt',
    header: 'Archived',
    cell: (campaign) => <time dateTime={campaign.archivedAt}>{archivedTime(campaign.archivedAt)}</time>,
  },
  {
    id: 'action',
    header: 'Action',
    card: 'actions',
    cell: (campaign) => (
      <DownloadEvidenceButton
        url={archivePaths.campaignEvidence(campaign._id)}
        fileName={`evidence ${campaign.name}.zip`}
        subject={campaign.name}
      />
    ),
  },
];

function ArchivedRecords({ kind, title }: { kind: CampaignType; title: string }) {
  const headingId = useId();
  const paging = usePagination(PAGE_SIZES[0]);
  // Every visit asks again: any delete may have archived more.
  const query = useGetArchivedRecordsQuery(
    { kind, page: paging.page, limit: paging.limit },
    { refetchOnMountOrArgChange: true },
  );
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <DataTable
        label={title}
        columns={columnsByKind[kind]}
        {...pagedTableProps(query, paging, PAGE_SIZES)}
        errorMessage={`The ${title.toLowerCase()} could not be loaded.`}
        emptyMessage={NO_ARCHIVED_RECORDS}
      />
    </section>
  );
}

function ArchivedCampaigns() {
  const headingId = useId();
  const paging = usePagination(PAGE_SIZES[0]);
  const query = useGetArchivedCampaignsQuery(
    { page: paging.page, limit: paging.limit },
    { refetchOnMountOrArgChange: true },
  );
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Archived campaigns</h2>
      <DataTable
        label="Archived campaigns"
        columns={campaignColumns}
        {...pagedTableProps(query, paging, PAGE_SIZES)}
        errorMessage="The archived campaigns could not be loaded."
        emptyMessage={NO_ARCHIVED_CAMPAIGNS}
      />
    </section>
  );
}

/**
 * /archive (ADMIN only): records and campaigns that deletes archived because they had been served.
 * They are in no other list; each keeps its evidence bundle, downloadable here.
 */
export function ArchiveLists() {
  return (
    <>
      <p>
        A delete never erases a notice that was sent: it is archived here, out of every list and count, with
        its deliveries and PDFs kept as evidence.
      </p>
      <ArchivedRecords kind="notice" title="Archived notices" />
      <ArchivedRecords kind="credit-card" title="Archived credit cards" />
      <ArchivedCampaigns />
    </>
  );
}
