import type { Notice, NoticeFields, NoticeList } from '@notice-desk/contract/notice';
import { recordKindApi } from '../../../lib/record-kind-api.ts';

/** The kind's hooks (list, one, create, update, delete, Delete All and its preview). */
export const noticesApi = recordKindApi<Notice, NoticeFields, NoticeList>()({
  one: 'Notice',
  many: 'Notices',
  type: 'notice',
  baseUrl: '/api/notices',
  deleteAllUrl: '/api/notices/delete-all-notices',
  listTag: 'Notices',
  recordTag: 'SingleNotice',
});
