import { ProgressBar } from '../../../components/ui/progress-bar.tsx';
import { useDownloadFileMutation } from '../../../lib/download-api.ts';
import { toastApiProblem } from '../../../lib/api-error.ts';
import { useImportProgress } from '../hooks/use-import-progress.ts';
import type { ImportOutcome } from '../stores/import-tracker.ts';
import { importKinds, importReportUrl, type ImportKind } from '../utils/import-kinds.ts';
import styles from './import-progress.module.css';

const rows = (count: number) => `${count} ${count === 1 ? 'row' : 'rows'}`;

/**
 * The list page's import status: the progress bar while the kind's import runs, then what came of
 * it when there is more to say than the success toast (skipped rows, or why it failed).
 */
export function ImportProgress({ kind }: { kind: ImportKind }) {
  const { showBar, percentage, finishing, outcome, dismissOutcome } = useImportProgress(kind);
  const { records } = importKinds[kind];

  return (
    <>
      {showBar && (
        <ProgressBar
          label={finishing ? `Import of ${records} complete` : `Importing ${records}…`}
          value={percentage}
        />
      )}
      {outcome && <OutcomeNotice kind={kind} outcome={outcome} onDismiss={dismissOutcome} />}
    </>
  );
}

type OutcomeNoticeProps = { kind: ImportKind; outcome: ImportOutcome; onDismiss: () => void };

function OutcomeNotice({ kind, outcome, onDismiss }: OutcomeNoticeProps) {
  const [download, { isLoading: downloading }] = useDownloadFileMutation();
  const failed = outcome.result === 'failed';
  const { jobId, skipped, noted, duplicates = 0, updated = 0 } = outcome;
  const reported = skipped + noted;

  const downloadReport = async () => {
    if (!jobId) return;
    try {
      await download({ url: importReportUrl(jobId), fileName: 'import-report.xlsx' }).unwrap();
    } catch (error) {
      toastApiProblem(error, 'Error downloading the report.');
    }
  };

  return (
    // A failure interrupts (alert); skipped rows after a success are news (status).
    <div
      className={failed ? `${styles.notice} ${styles.failed}` : styles.notice}
      role={failed ? 'alert' : 'status'}
    >
      <div className={styles.noticeText}>
        {failed ? (
          <>
            <p className={styles.noticeTitle}>The import of {importKinds[kind].records} failed.</p>
            <p>{outcome.error}</p>
            {skipped > 0 && <p>{rows(skipped)} had problems; the report lists them.</p>}
          </>
        ) : (
          <>
            <p className={styles.noticeTitle}>
              {skipped > 0
                ? `${rows(skipped)} of the file ${skipped === 1 ? 'was' : 'were'} skipped` +
                  (duplicates > 0 && updated === 0 ? ` (${duplicates} already imported).` : '.')
                : noted > 0
                  ? `${rows(noted)} imported with a note.`
                  : `${updated} existing ${updated === 1 ? 'record' : 'records'} updated.`}
            </p>
            <p>
              {outcome.imported} {importKinds[kind].records} imported.
              {updated > 0 &&
                ` ${updated} ${updated === 1 ? 'row' : 'rows'} already imported updated the existing ${updated === 1 ? 'record' : 'records'}.`}
              {skipped > 0 && noted > 0 && ` ${rows(noted)} imported with a note.`} The report says which rows
              and why.
            </p>
          </>
        )}
      </div>
      <div className={styles.noticeActions}>
        {reported > 0 && jobId && (
          <button
            type="button"
            className="button button-secondary button-small"
            disabled={downloading}
            onClick={() => void downloadReport()}
          >
            Download report
          </button>
        )}
        <button type="button" className="button button-secondary button-small" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
    </div>
  );
}
