import { useCallback, useMemo, useState } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import type { Campaign, CampaignType } from '@notice-desk/contract/campaigns';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { DeletePreviewNote } from '../../../components/ui/delete-preview-note.tsx';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { pagedTableProps } from '../../../components/ui/table-query.ts';
import { paths } from '../../../config/paths.ts';
import { useListSearch } from '../../../hooks/use-list-search.ts';
import { usePagination } from '../../../hooks/use-pagination.ts';
import { toastApiProblem } from '../../../lib/api-error.ts';
import { formatListDate } from '../../../utils/format-date.ts';
import {
  useDeleteCampaignMutation,
  useGetCampaignDeletePreviewQuery,
  useGetCampaignsQuery,
} from '../api/campaigns-api.ts';
import { ExportCampaignButton } from './export-campaign-button.tsx';
import styles from './campaign-list.module.css';

/** The spec's campaign list page sizes; 10 is the default. */
const PAGE_SIZES = [10, 25, 2500] as const;

/** /campaign/credit-card and /campaign/notice: the user's imports (history entries) of a kind. */
export function CampaignList({ type }: { type: CampaignType }) {
  const { text: searchText, setText: setSearchText, search } = useListSearch();
  const paging = usePagination(PAGE_SIZES[0], search);
  const query = useGetCampaignsQuery({ type, page: paging.page, limit: paging.limit, search });
  const [deleteCampaign, { isLoading: deleting }] = useDeleteCampaignMutation();
  const [confirming, setConfirming] = useState<Campaign | null>(null);

  const askToDelete = useCallback((campaign: Campaign) => setConfirming(campaign), []);

  const confirmDelete = async () => {
    if (!confirming) return;
    try {
      const { message } = await deleteCampaign(confirming._id).unwrap();
      toast.success(message);
    } catch (error) {
      toastApiProblem(error, 'The campaign could not be deleted.');
    } finally {
      setConfirming(null);
    }
  };

  const columns = useMemo<DataTableColumn<Campaign>[]>(
    () => [
      { id: 'number', header: 'No.', cell: (_campaign, rowNumber) => rowNumber, card: 'number' },
      {
        id: 'name',
        header: 'History Name',
        card: 'title',
        cell: (campaign) => (
          <Link to={paths.campaigns.detail.getHref(type, campaign._id)}>{campaign.name}</Link>
        ),
      },
      {
        id: 'date',
        header: 'Imported At',
        // The spec's list date; the exact time is a hover away, for two imports on one day.
        cell: (campaign) => (
          <time dateTime={campaign.date} title={new Date(campaign.date).toLocaleString()}>
            {formatListDate(campaign.date)}
          </time>
        ),
      },
      {
        id: 'action',
        header: 'Action',
        card: 'actions',
        cell: (campaign) => (
          <div className={styles.actions}>
            <button
              type="button"
              className="button button-danger button-small"
              onClick={() => askToDelete(campaign)}
            >
              Delete<span className="visually-hidden"> {campaign.name}</span>
            </button>
            <ExportCampaignButton type={type} campaign={campaign} />
          </div>
        ),
      },
    ],
    [type, askToDelete],
  );

  return (
    <>
      <DataTable
        label="Campaigns"
        columns={columns}
        {...pagedTableProps(query, paging, PAGE_SIZES)}
        serverSearch={{ text: searchText, onTextChange: setSearchText, searchedFor: search }}
        errorMessage="The campaigns could not be loaded."
        emptyMessage="No campaigns yet. Import an Excel file from Forms to start one."
      />
      <ConfirmDialog
        open={confirming !== null}
        question={
          confirming
            ? `Are you sure you want to delete ${confirming.name}? Its records are deleted with it.`
            : ''
        }
        confirmLabel="Delete"
        busy={deleting}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setConfirming(null)}
      >
        {confirming && <CampaignDeletePreview campaignId={confirming._id} />}
      </ConfirmDialog>
    </>
  );
}

/** How many of the campaign's records the delete will archive (already served) and erase, asked afresh. */
function CampaignDeletePreview({ campaignId }: { campaignId: string }) {
  return (
    <DeletePreviewNote
      {...useGetCampaignDeletePreviewQuery(campaignId, { refetchOnMountOrArgChange: true })}
    />
  );
}
