import { useCallback, useMemo, useState, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { messages } from '@notice-desk/contract/messages';
import { useListSearch } from '../../hooks/use-list-search.ts';
import { usePagination } from '../../hooks/use-pagination.ts';
import { toastApiProblem } from '../../lib/api-error.ts';
import type { RecordKindHooks } from '../../lib/record-kind-api.ts';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { DeletePreviewNote } from '../ui/delete-preview-note.tsx';
import { DataTable, type DataTableColumn } from '../ui/data-table.tsx';
import { pagedTableProps } from '../ui/table-query.ts';
import { RecordActions, deleteRecordQuestion, recordPdfHref } from './record-actions.tsx';
import { capitalised, recordKinds, type RecordKindScreens } from './record-kinds.ts';

/** The spec sets the default (10); the other sizes are this list's choice. */
const PAGE_SIZES = [10, 25, 50, 100] as const;

/** What a record list shows of a stored record besides its own columns. */
type StoredRecord = { _id: string; pdfLink: string; custName?: string };

/** Asked each time the Delete All question opens: the counts change with every send. */
function DeleteAllPreview({
  usePreview,
}: {
  usePreview: RecordKindHooks<unknown, unknown, unknown>['useDeleteAllPreview'];
}) {
  return <DeletePreviewNote {...usePreview(undefined, { refetchOnMountOrArgChange: true })} />;
}

export type RecordListProps<TRecord extends StoredRecord, TFields> = {
  /** Keep it stable (a module constant). */
  kind: RecordKindScreens<TRecord, TFields>;
  /** The 'Import Excel' button with its modal, from the import feature; a disabled stand-in until then. */
  importExcel?: ReactNode;
};

/** Whose record it is: the action buttons' names and the Delete question. */
const customerName = (record: StoredRecord) => record.custName ?? '';

/** A list of the signed-in user's records of one kind, with add, import, delete and Delete All. */
export function RecordList<TRecord extends StoredRecord, TFields>({
  kind: {
    type,
    api: { useRecords, useDeleteRecord, useDeleteAll, useDeleteAllPreview },
    columns: recordColumns,
    reference,
  },
  importExcel,
}: RecordListProps<TRecord, TFields>) {
  const { one, many, title, deletedMessage, paths } = recordKinds[type];
  const { text: searchText, setText: setSearchText, search } = useListSearch();
  const paging = usePagination(PAGE_SIZES[0], search);
  const query = useRecords({ page: paging.page, limit: paging.limit, search });
  const { data } = query;
  const [deleteRecord] = useDeleteRecord();
  const [deleteAll, { isLoading: deletingAll }] = useDeleteAll();
  const [confirmingDeleteAll, setConfirmingDeleteAll] = useState(false);
  /** The record whose Delete was pressed, until the question is answered. */
  const [confirmingDelete, setConfirmingDelete] = useState<TRecord | null>(null);
  const [deleting, setDeleting] = useState(false);

  const askToDelete = useCallback((record: TRecord) => setConfirmingDelete(record), []);

  const confirmDelete = async () => {
    if (!confirmingDelete) return;
    setDeleting(true);
    try {
      await deleteRecord(confirmingDelete._id).unwrap();
      toast.success(deletedMessage);
    } catch (error) {
      toastApiProblem(error, `The ${one} could not be deleted.`);
    } finally {
      setDeleting(false);
      setConfirmingDelete(null);
    }
  };

  const confirmDeleteAll = async () => {
    try {
      await deleteAll().unwrap();
      // The spec words this toast for credit cards and uses it for notices too.
      toast.success(messages.allDeleted);
      paging.setPage(1);
    } catch (error) {
      toastApiProblem(error, `The ${many} could not be deleted.`);
    } finally {
      setConfirmingDeleteAll(false);
    }
  };

  const pdfUrl = data?.pdfUrl ?? '';
  const columns = useMemo<DataTableColumn<TRecord>[]>(
    () => [
      { id: 'number', header: 'No.', cell: (_record, rowNumber) => rowNumber, card: 'number' },
      ...recordColumns,
      {
        id: 'action',
        header: 'Action',
        card: 'actions',
        cell: (record) => (
          <RecordActions
            name={customerName(record)}
            editHref={paths.edit.getHref(record._id)}
            pdfHref={recordPdfHref(pdfUrl, record.pdfLink)}
            onDelete={() => askToDelete(record)}
          />
        ),
      },
    ],
    [recordColumns, paths, pdfUrl, askToDelete],
  );

  return (
    <>
      <div className="page-actions">
        <Link className="button button-primary" to={paths.add.getHref()}>
          {`Add ${title}`}
        </Link>
        {importExcel ?? (
          <button type="button" className="button button-secondary" disabled title="Available soon">
            Import Excel
          </button>
        )}
        <button
          type="button"
          className="button button-danger"
          // A search's total counts its matches: none found is no sign the list is empty.
          disabled={!data || (data.total === 0 && !search)}
          onClick={() => setConfirmingDeleteAll(true)}
        >
          Delete All
        </button>
      </div>
      <DataTable
        label={capitalised(many)}
        columns={columns}
        {...pagedTableProps(query, paging, PAGE_SIZES)}
        serverSearch={{ text: searchText, onTextChange: setSearchText, searchedFor: search }}
        errorMessage={`The ${many} could not be loaded.`}
      />
      <ConfirmDialog
        open={confirmingDelete !== null}
        question={
          confirmingDelete
            ? deleteRecordQuestion(one, customerName(confirmingDelete), reference(confirmingDelete))
            : ''
        }
        confirmLabel="Delete"
        busy={deleting}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setConfirmingDelete(null)}
      />
      <ConfirmDialog
        open={confirmingDeleteAll}
        question={`Are you sure you want to delete all ${many}?`}
        confirmLabel="Delete All"
        busy={deletingAll}
        onConfirm={() => void confirmDeleteAll()}
        onCancel={() => setConfirmingDeleteAll(false)}
      >
        {confirmingDeleteAll && <DeleteAllPreview usePreview={useDeleteAllPreview} />}
      </ConfirmDialog>
    </>
  );
}
