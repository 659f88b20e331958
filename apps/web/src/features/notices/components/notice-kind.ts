import type { Notice, NoticeFields } from '@notice-desk/contract/notice';
import { campaignColumn } from '../../../components/records/campaign-column.tsx';
import type { RecordKindScreens } from '../../../components/records/record-kinds.ts';
import { formatListDate } from '../../../utils/format-date.ts';
import { noticesApi } from '../api/notices-api.ts';

/** What the shared record screens show of notices. */
export const noticeKind: RecordKindScreens<Notice, NoticeFields> = {
  type: 'notice',
  api: noticesApi,
  columns: [
    { id: 'custName', header: 'Name', cell: (notice) => notice.custName, card: 'title' },
    { id: 'custMobileNo', header: 'Mobile No.', cell: (notice) => notice.custMobileNo },
    { id: 'loanNo', header: 'Loan No.', cell: (notice) => notice.loanNo },
    campaignColumn('notice'),
    { id: 'date', header: 'Date', cell: (notice) => formatListDate(notice.createdAt) },
  ],
  reference: (notice) => notice.loanNo,
};
