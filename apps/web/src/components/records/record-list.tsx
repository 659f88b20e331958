import { useCallback, useMemo, useState, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { messages } from '@notice-desk/contract/messages';
import { useListSearch } from '../../hooks/use-list-search.ts';
import { usePagination } from '../../hooks/use-pagination.ts';
import { toastApiProblem } from '../../lib/api-error.ts';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { DeletePreviewNote, type DeletePreviewQuery } from '../ui/delete-preview-note.tsx';
import { DataTable, type DataTableColumn } from '../ui/data-table.tsx';
import { pagedTableProps, type PagedQuery } from '../ui/table-query.ts';
import { RecordActions, recordPdfHref } from './record-actions.tsx';

/** The spec sets the default (10); the other sizes are this list's choice. */
const PAGE_SIZES = [10, 25, 50, 100] as const;

/** What a record list shows of a stored record besides its own columns. */
type StoredRecord = { _id: string; pdfLink: string };

type RecordPage<TRecord> = { items: TRecord[]; total: number; pdfUrl: string };

type Unwrappable = { unwrap: () => Promise<unknown> };

/** The kind's RTK Query hooks: its paged list, delete one, Delete All and what Delete All would do. */
export type RecordListApi<TRecord> = {
  useRecords: (args: {
    page: number;
    limit: number;
    search?: string;
  }) => PagedQuery<TRecord> & { data?: RecordPage<TRecord> };
  useDeleteRecord: () => readonly [(id: string) => Unwrappable, ...unknown[]];
  useDeleteAll: () => readonly [() => Unwrappable, { isLoading: boolean }];
  useDeleteAllPreview: (arg: undefined, options: { refetchOnMountOrArgChange: true }) => DeletePreviewQuery;
};

/** Asked each time the Delete All question opens: the counts change with every send. */
function DeleteAllPreview({ usePreview }: { usePreview: RecordListApi<unknown>['useDeleteAllPreview'] }) {
  return <DeletePreviewNote {...usePreview(undefined, { refetchOnMountOrArgChange: true })} />;
}

export type RecordListProps<TRecord extends StoredRecord> = {
  api: RecordListApi<TRecord>;
  /** The table's accessible name, e.g. 'Credit cards'. */
  label: string;
  addLabel: string;
  addHref: string;
  /** The kind's own columns, between 'No.' and 'Action'. Keep them stable (a module constant). */
  columns: readonly DataTableColumn<TRecord>[];
  /** Whose record it is (the customer name): the action buttons' names. Keep it stable. */
  recordName: (record: TRecord) => string;
  /** Keep it stable (a module function). */
  editHref: (id: string) => string;
  /** What a row's Delete asks, naming the customer (see deleteRecordQuestion). */
  deleteQuestion: (record: TRecord) => string;
  deletedMessage: string;
  deleteFailedMessage: string;
  deleteAllFailedMessage: string;
  loadFailedMessage: string;
  deleteAllQuestion: string;
  /** The 'Import Excel' button with its modal, from the import feature; a disabled stand-in until then. */
  importExcel?: ReactNode;
};

/** A list of the signed-in user's records of one kind, with add, import, delete and Delete All. */
export function RecordList<TRecord extends StoredRecord>({
  api: { useRecords, useDeleteRecord, useDeleteAll, useDeleteAllPreview },
  label,
  addLabel,
  addHref,
  columns: recordColumns,
  recordName,
  editHref,
  deleteQuestion,
  deletedMessage,
  deleteFailedMessage,
  deleteAllFailedMessage,
  loadFailedMessage,
  deleteAllQuestion,
  importExcel,
}: RecordListProps<TRecord>) {
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
      toastApiProblem(error, deleteFailedMessage);
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
      toastApiProblem(error, deleteAllFailedMessage);
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
            name={recordName(record)}
            editHref={editHref(record._id)}
            pdfHref={recordPdfHref(pdfUrl, record.pdfLink)}
            onDelete={() => askToDelete(record)}
          />
        ),
      },
    ],
    [recordColumns, recordName, editHref, pdfUrl, askToDelete],
  );

  return (
    <>
      <div className="page-actions">
        <Link className="button button-primary" to={addHref}>
          {addLabel}
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
        label={label}
        columns={columns}
        {...pagedTableProps(query, paging, PAGE_SIZES)}
        serverSearch={{ text: searchText, onTextChange: setSearchText, searchedFor: search }}
        errorMessage={loadFailedMessage}
      />
      <ConfirmDialog
        open={confirmingDelete !== null}
        question={confirmingDelete ? deleteQuestion(confirmingDelete) : ''}
        confirmLabel="Delete"
        busy={deleting}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setConfirmingDelete(null)}
      />
      <ConfirmDialog
        open={confirmingDeleteAll}
        question={deleteAllQuestion}
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
