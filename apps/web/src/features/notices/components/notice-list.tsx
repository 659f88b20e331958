import type { ReactNode } from 'react';
import { messages } from '@notice-desk/contract/messages';
import type { Notice } from '@notice-desk/contract/notice';
import { deleteRecordQuestion } from '../../../components/records/record-actions.tsx';
import { RecordList, type RecordListApi } from '../../../components/records/record-list.tsx';
import type { DataTableColumn } from '../../../components/ui/data-table.tsx';
import { paths } from '../../../config/paths.ts';
import { formatListDate } from '../../../utils/format-date.ts';
import {
  useDeleteAllNoticesMutation,
  useGetNoticesDeletePreviewQuery,
  useDeleteNoticeMutation,
  useGetNoticesQuery,
} from '../api/notices-api.ts';

const noticesApi: RecordListApi<Notice> = {
  useRecords: useGetNoticesQuery,
  useDeleteRecord: useDeleteNoticeMutation,
  useDeleteAll: useDeleteAllNoticesMutation,
  useDeleteAllPreview: useGetNoticesDeletePreviewQuery,
};

const customerName = (notice: Notice) => notice.custName;
const editHref = (id: string) => paths.notices.edit.getHref(id);
const deleteQuestion = (notice: Notice) => deleteRecordQuestion('notice', notice.custName, notice.loanNo);

const columns: DataTableColumn<Notice>[] = [
  { id: 'custName', header: 'Name', cell: (notice) => notice.custName, card: 'title' },
  { id: 'custMobileNo', header: 'Mobile No.', cell: (notice) => notice.custMobileNo },
  { id: 'loanNo', header: 'Loan No.', cell: (notice) => notice.loanNo },
  { id: 'date', header: 'Date', cell: (notice) => formatListDate(notice.createdAt) },
];

type NoticeListProps = {
  /** The 'Import Excel' button with its modal, from the import feature; a disabled stand-in until then. */
  importExcel?: ReactNode;
};

/** /forms/notice: the signed-in user's notices, with add, import, delete and Delete All. */
export function NoticeList({ importExcel }: NoticeListProps) {
  return (
    <RecordList
      api={noticesApi}
      label="Notices"
      addLabel="Add Notice"
      addHref={paths.notices.add.getHref()}
      columns={columns}
      recordName={customerName}
      editHref={editHref}
      deleteQuestion={deleteQuestion}
      deletedMessage={messages.noticeDeleted}
      deleteFailedMessage="The notice could not be deleted."
      deleteAllFailedMessage="The notices could not be deleted."
      loadFailedMessage="The notices could not be loaded."
      deleteAllQuestion="Are you sure you want to delete all notices?"
      importExcel={importExcel}
    />
  );
}
