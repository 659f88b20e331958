import { toastApiProblem } from '../../lib/api-error.ts';
import { DownloadButton } from '../ui/download-button.tsx';

export const EVIDENCE_FAILED = 'The evidence bundle could not be downloaded.';

type DownloadEvidenceButtonProps = {
  /** The bundle's address (the contract's evidencePaths). */
  url: string;
  /** The name to save under when the server does not name the file. */
  fileName: string;
  /** Whose evidence it is (a customer, a campaign), for screen readers. */
  subject: string;
};

const toastEvidenceFailed = (problem: unknown) => toastApiProblem(problem, EVIDENCE_FAILED);

/**
 * 'Download evidence': the zip of what was served, when and to whom (the PDFs sent, every delivery
 * and its history, a manifest of hashes). Busy while the server builds it; a failure is a toast
 * with the server's own message.
 */
export function DownloadEvidenceButton({ url, fileName, subject }: DownloadEvidenceButtonProps) {
  return (
    <DownloadButton
      url={url}
      fileName={fileName}
      label="Download evidence"
      busyLabel="Preparing evidence…"
      onFailed={toastEvidenceFailed}
      subject={`for ${subject}`}
    />
  );
}
