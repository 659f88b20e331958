import type { ReactNode } from 'react';
import { useDownloadFileMutation } from '../../lib/download-api.ts';

type DownloadButtonProps = {
  /** The file's address, fetched behind the session's token. */
  url: string;
  /** The name to save under when the server does not name the file. */
  fileName: string;
  label: string;
  /** Shown while the server prepares the file: a large one takes a while. */
  busyLabel: string;
  /** What the user is told (or not) when the download fails. */
  onFailed: (problem: unknown) => void;
  small?: boolean;
  /** Said after the label to screen readers only: whose file it is. */
  subject?: ReactNode;
};

/** A button that downloads a file and says it is busy until the file is saved. */
export function DownloadButton({
  url,
  fileName,
  label,
  busyLabel,
  onFailed,
  small,
  subject,
}: DownloadButtonProps) {
  const [download, { isLoading: downloading }] = useDownloadFileMutation();

  const save = async () => {
    try {
      await download({ url, fileName }).unwrap();
    } catch (problem) {
      onFailed(problem);
    }
  };

  return (
    <button
      type="button"
      className={small ? 'button button-secondary button-small' : 'button button-secondary'}
      disabled={downloading}
      aria-busy={downloading}
      onClick={() => void save()}
    >
      {downloading ? busyLabel : label}
      {subject !== undefined && <span className="visually-hidden"> {subject}</span>}
    </button>
  );
}
