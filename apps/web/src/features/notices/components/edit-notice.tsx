import { EditRecord } from '../../../components/records/edit-record.tsx';
import { noticeKind } from './notice-kind.ts';

/** The notice wizard prefilled with a stored notice, once it has loaded, and its evidence bundle. */
export function EditNotice({ id, onSaved }: { id: string; onSaved: () => void }) {
  return <EditRecord kind={noticeKind} id={id} onSaved={onSaved} />;
}
