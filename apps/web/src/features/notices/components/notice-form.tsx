import type { Notice } from '@notice-desk/contract/notice';
import { RecordForm } from '../../../components/records/record-form.tsx';
import { noticeKind } from './notice-kind.ts';

/** The 4-step notice wizard: adds a notice, or edits the one given. */
export function NoticeForm({ notice, onSaved }: { notice?: Notice; onSaved: () => void }) {
  return <RecordForm kind={noticeKind} record={notice} onSaved={onSaved} />;
}
