import { Link } from 'react-router';
import { ErrorState } from '../../../components/ui/error-state.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { isMissingRecord } from '../../../lib/api-error.ts';
import { useGetNoticeQuery } from '../api/notices-api.ts';
import { NoticeForm } from './notice-form.tsx';

/** The notice wizard prefilled with a stored record, once it has loaded. */
export function EditNotice({ id, onSaved }: { id: string; onSaved: () => void }) {
  const { data: notice, error, isLoading, refetch } = useGetNoticeQuery(id);

  if (isLoading) return <Spinner label="Loading the notice" />;
  if (isMissingRecord(error)) {
    return (
      <div className="state-message" role="alert">
        <p>Notice not found. It may have been deleted.</p>
        <Link to={paths.notices.list.getHref()}>Back to Notice Concialation</Link>
      </div>
    );
  }
  if (!notice) {
    return <ErrorState message="The notice could not be loaded." onRetry={() => void refetch()} />;
  }
  return <NoticeForm key={notice._id} notice={notice} onSaved={onSaved} />;
}
