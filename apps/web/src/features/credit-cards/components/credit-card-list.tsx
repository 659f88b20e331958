import { useCallback, useMemo, useState, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import type { CreditCard } from '@notice-desk/contract/credit-card';
import { messages } from '@notice-desk/contract/messages';
import { RecordActions, recordPdfHref } from '../../../components/records/record-actions.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { paths } from '../../../config/paths.ts';
import { usePagination } from '../../../hooks/use-pagination.ts';
import { toastApiProblem } from '../../../lib/api-error.ts';
import { formatCreditCardListDate } from '../../../utils/format-date.ts';
import {
  useDeleteAllCreditCardsMutation,
  useDeleteCreditCardMutation,
  useGetCreditCardsQuery,
} from '../api/credit-cards-api.ts';

/** The spec sets the default (10); the other sizes are this list's choice. */
const PAGE_SIZES = [10, 25, 50, 100] as const;

const creditCardId = (creditCard: CreditCard) => creditCard._id;
// The contract types credit-card fields by a plain string key, so a read may be undefined to TypeScript.
const customerName = (creditCard: CreditCard) => creditCard.custName ?? '';

type CreditCardListProps = {
  /** The 'Import Excel' button with its modal, from the import feature; a disabled stand-in until then. */
  importExcel?: ReactNode;
};

/** /forms/credit-card: the signed-in user's credit cards, with add, import, delete and Delete All. */
export function CreditCardList({ importExcel }: CreditCardListProps) {
  const { page, limit, setPage, setLimit } = usePagination(PAGE_SIZES[0]);
  const { data, isLoading, isFetching, isError, refetch } = useGetCreditCardsQuery({ page, limit });
  const [deleteCreditCard] = useDeleteCreditCardMutation();
  const [deleteAll, { isLoading: deletingAll }] = useDeleteAllCreditCardsMutation();
  const [confirmingDeleteAll, setConfirmingDeleteAll] = useState(false);

  const remove = useCallback(
    async (id: string) => {
      try {
        await deleteCreditCard(id).unwrap();
        toast.success(messages.creditCardDeleted);
      } catch (error) {
        toastApiProblem(error, 'The credit card could not be deleted.');
      }
    },
    [deleteCreditCard],
  );

  const confirmDeleteAll = async () => {
    try {
      await deleteAll().unwrap();
      toast.success(messages.allDeleted);
      setPage(1);
    } catch (error) {
      toastApiProblem(error, 'The credit cards could not be deleted.');
    } finally {
      setConfirmingDeleteAll(false);
    }
  };

  const pdfUrl = data?.pdfUrl ?? '';
  const columns = useMemo<DataTableColumn<CreditCard>[]>(
    () => [
      { id: 'number', header: 'No.', cell: (_creditCard, rowNumber) => rowNumber },
      { id: 'custName', header: 'Arqn Name', cell: (creditCard) => creditCard.custName },
      { id: 'noticeBalance', header: 'Notice Balance', cell: (creditCard) => creditCard.noticeBalance },
      { id: 'maskNo', header: 'Maskcard', cell: (creditCard) => creditCard.maskNo },
      {
        id: 'date',
        header: 'Date',
        cell: (creditCard) => formatCreditCardListDate(creditCard.campDate ?? ''),
      },
      {
        id: 'action',
        header: 'Action',
        cell: (creditCard) => (
          <RecordActions
            name={customerName(creditCard)}
            editHref={paths.creditCards.edit.getHref(creditCard._id)}
            pdfHref={recordPdfHref(pdfUrl, creditCard.pdfLink)}
            onDelete={() => remove(creditCard._id)}
          />
        ),
      },
    ],
    [pdfUrl, remove],
  );

  return (
    <>
      <div className="page-actions">
        <Link className="button button-primary" to={paths.creditCards.add.getHref()}>
          Add Credit Card
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
        label="Credit cards"
        columns={columns}
        rows={data?.items ?? []}
        rowId={creditCardId}
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
        errorMessage="The credit cards could not be loaded."
        onRetry={() => void refetch()}
      />
      <ConfirmDialog
        open={confirmingDeleteAll}
        question="Are you sure you want to delete all credit cards?"
        confirmLabel="Delete All"
        busy={deletingAll}
        onConfirm={() => void confirmDeleteAll()}
        onCancel={() => setConfirmingDeleteAll(false)}
      />
    </>
  );
}
