import { toastApiProblem } from '../../lib/api-error.ts';
import { useDownloadFileMutation } from '../../lib/download-api.ts';

export const EVIDENCE_FAILED = 'The evidence bundle could not be downloaded.';

type DownloadEvidenceButtonProps = {
  /** The bundle's address (the contract's evidencePaths). */
  url: string;
  /** The name to save under when the server does not name the file. */
  fileName: string;
  /** Whose evidence it is (a customer, a campaign), for screen readers. */
  subject: string;
};

/**
 * 'Download evidence': the zip of what was served, when and to whom (the PDFs sent, every delivery
 * and its history, a manifest of hashes). Busy while the server builds it; a failure is a toast
 * with the server's own message.
 */
export function DownloadEvidenceButton({ url, fileName, subject }: DownloadEvidenceButtonProps) {
  const [download, { isLoading: downloading }] = useDownloadFileMutation();

  const save = async () => {
    try {
      await download({ url, fileName }).unwrap();
    } catch (problem) {
      toastApiProblem(problem, EVIDENCE_FAILED);
    }
  };

  return (
    <button
      type="button"
      className="button button-secondary"
      disabled={downloading}
      aria-busy={downloading}
      onClick={() => void save()}
    >
      {downloading ? 'Preparing evidence…' : 'Download evidence'}
      <span className="visually-hidden"> for {subject}</span>
    </button>
  );
}
