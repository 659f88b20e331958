import { Link } from 'react-router';
import { evidencePaths } from '@notice-desk/contract/evidence';
import { DownloadEvidenceButton } from '../../../components/deliveries/download-evidence-button.tsx';
import { ErrorState } from '../../../components/ui/error-state.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { isMissingRecord } from '../../../lib/api-error.ts';
import { useGetNoticeQuery } from '../api/notices-api.ts';
import { NoticeForm } from './notice-form.tsx';

/** The notice wizard prefilled with a stored record, once it has loaded, and its evidence bundle. */
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
  return (
    <>
      <div className="page-actions">
        <DownloadEvidenceButton
          url={evidencePaths.record('notice', notice._id)}
          fileName={`evidence ${notice.loanNo || notice._id}.zip`}
          subject={notice.custName}
        />
      </div>
      <NoticeForm key={notice._id} notice={notice} onSaved={onSaved} />
    </>
  );
}
