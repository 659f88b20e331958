import type { ReactNode } from 'react';
import { RecordList } from '../../../components/records/record-list.tsx';
import { noticeKind } from './notice-kind.ts';

/** /forms/notice: the signed-in user's notices, with add, import, delete and Delete All. */
export function NoticeList({ importExcel }: { importExcel?: ReactNode }) {
  return <RecordList kind={noticeKind} importExcel={importExcel} />;
}
