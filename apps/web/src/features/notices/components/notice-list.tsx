import { useCallback, useMemo, useState, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { messages } from '@notice-desk/contract/messages';
import type { Notice } from '@notice-desk/contract/notice';
import { RecordActions, recordPdfHref } from '../../../components/records/record-actions.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { paths } from '../../../config/paths.ts';
import { usePagination } from '../../../hooks/use-pagination.ts';
import { toastApiProblem } from '../../../lib/api-error.ts';
import { formatListDate } from '../../../utils/format-date.ts';
import {
  useDeleteAllNoticesMutation,
  useDeleteNoticeMutation,
  useGetNoticesQuery,
} from '../api/notices-api.ts';

/** The spec sets the default (10); the other sizes are this list's choice. */
const PAGE_SIZES = [10, 25, 50, 100] as const;

const noticeId = (notice: Notice) => notice._id;
const customerName = (notice: Notice) => notice.custName;

type NoticeListProps = {
  /** The 'Import Excel' button with its modal, from the import feature; a disabled stand-in until then. */
  importExcel?: ReactNode;
};

/** /forms/notice: the signed-in user's notices, with add, import, delete and Delete All. */
export function NoticeList({ importExcel }: NoticeListProps) {
  const { page, limit, setPage, setLimit } = usePagination(PAGE_SIZES[0]);
  const { data, isLoading, isFetching, isError, refetch } = useGetNoticesQuery({ page, limit });
  const [deleteNotice] = useDeleteNoticeMutation();
  const [deleteAll, { isLoading: deletingAll }] = useDeleteAllNoticesMutation();
  const [confirmingDeleteAll, setConfirmingDeleteAll] = useState(false);

  const remove = useCallback(
    async (id: string) => {
      try {
        await deleteNotice(id).unwrap();
        toast.success(messages.noticeDeleted);
      } catch (error) {
        toastApiProblem(error, 'The notice could not be deleted.');
      }
    },
    [deleteNotice],
  );

  const confirmDeleteAll = async () => {
    try {
      await deleteAll().unwrap();
      // The spec words this toast for credit cards and uses it for notices too.
      toast.success(messages.allDeleted);
      setPage(1);
    } catch (error) {
      toastApiProblem(error, 'The notices could not be deleted.');
    } finally {
      setConfirmingDeleteAll(false);
    }
  };

  const pdfUrl = data?.pdfUrl ?? '';
  const columns = useMemo<DataTableColumn<Notice>[]>(
    () => [
      { id: 'number', header: 'No.', cell: (_notice, rowNumber) => rowNumber },
      { id: 'custName', header: 'Name', cell: (notice) => notice.custName },
      { id: 'custMobileNo', header: 'Mobile No.', cell: (notice) => notice.custMobileNo },
      { id: 'loanNo', header: 'Loan No.', cell: (notice) => notice.loanNo },
      { id: 'date', header: 'Date', cell: (notice) => formatListDate(notice.createdAt) },
      {
        id: 'action',
        header: 'Action',
        cell: (notice) => (
          <RecordActions
            name={notice.custName}
            editHref={paths.notices.edit.getHref(notice._id)}
            pdfHref={recordPdfHref(pdfUrl, notice.pdfLink)}
            onDelete={() => remove(notice._id)}
          />
        ),
      },
    ],
    [pdfUrl, remove],
  );

  return (
    <>
      <div className="page-actions">
        <Link className="button button-primary" to={paths.notices.add.getHref()}>
          Add Notice
        </Link>
        {importExcel ?? (
          <button type="button" className="button button-secondary" disabled title="Available soon">
            Import Excel
          </button>
        )}
        <button
          type="button"
          className="button button-danger"
          disabled={!data || data.total === 0}
          onClick={() => setConfirmingDeleteAll(true)}
        >
          Delete All
        </button>
      </div>
      <DataTable
        label="Notices"
        columns={columns}
        rows={data?.items ?? []}
        rowId={noticeId}
        page={page}
        limit={limit}
        total={data?.total ?? 0}
        pageSizes={PAGE_SIZES}
        onPageChange={setPage}
        onLimitChange={setLimit}
        searchText={customerName}
        loading={isLoading}
        busy={isFetching}
        failed={isError}
        errorMessage="The notices could not be loaded."
        onRetry={() => void refetch()}
      />
      <ConfirmDialog
        open={confirmingDeleteAll}
        question="Are you sure you want to delete all notices?"
        confirmLabel="Delete All"
        busy={deletingAll}
        onConfirm={() => void confirmDeleteAll()}
        onCancel={() => setConfirmingDeleteAll(false)}
      />
    </>
  );
}
