import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Modal } from '../../../components/ui/modal.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { readApiProblem } from '../../../lib/api-error.ts';
import { useDownloadFileMutation } from '../../../lib/download-api.ts';
import { useStartImportMutation, useUploadImportFileMutation } from '../api/imports-api.ts';
import { trackImport } from '../hooks/use-import-progress.ts';
import {
  campaignNameFor,
  fileSizeInMb,
  importFileAccept,
  importFileError,
  uploadNameFor,
} from '../utils/import-file.ts';
import { importKinds, type ImportKind } from '../utils/import-kinds.ts';
import styles from './import-excel-modal.module.css';

type Phase = 'editing' | 'uploading' | 'starting' | 'failed';

type ImportExcelModalProps = {
  kind: ImportKind;
  open: boolean;
  onClose: () => void;
};

/**
 * The spec's Import Excel modal: choose an .xlsx, optionally rename it, see its size and status,
 * Close or Submit. Submit uploads the file, starts the import with the stored name, and leaves the
 * progress to the list page.
 */
export function ImportExcelModal({ kind, open, onClose }: ImportExcelModalProps) {
  const [upload] = useUploadImportFileMutation();
  const [start] = useStartImportMutation();
  const [downloadSample, { isLoading: downloadingSample }] = useDownloadFileMutation();

  const [file, setFile] = useState<File | null>(null);
  const [rename, setRename] = useState('');
  const [fileError, setFileError] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>('editing');
  const fileInput = useRef<HTMLInputElement>(null);
  const formId = useId();
  const fileId = useId();
  const fileErrorId = `${fileId}-error`;
  const busy = phase === 'uploading' || phase === 'starting';

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0] ?? null;
    setFile(chosen);
    // A wrong file is pointed out at once; a cleared choice waits for Submit.
    setFileError(chosen ? importFileError(chosen) : null);
    setNameError(null);
    setMessage(null);
    setPhase('editing');
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const problem = importFileError(file);
    setFileError(problem);
    setNameError(null);
    setMessage(null);
    if (problem || !file) {
      fileInput.current?.focus();
      return;
    }
    try {
      setPhase('uploading');
      const { data: storedName } = await upload({
        kind,
        file,
        name: uploadNameFor(file.name, rename),
      }).unwrap();
      setPhase('starting');
      const campaignName = campaignNameFor(file.name, rename);
      const started = await start({
        kind,
        file: storedName,
        ...(campaignName && { name: campaignName }),
      }).unwrap();
      trackImport(kind, started.jobId);
      toast.success(started.message);
      onClose();
    } catch (error) {
      setPhase('failed');
      const problem = readApiProblem(error);
      const { file: fileProblem, name: nameProblem, ...others } = problem.fieldErrors;
      if (fileProblem) setFileError(fileProblem);
      if (nameProblem) setNameError(nameProblem);
      const rest = [problem.message, ...Object.values(others)].filter(Boolean).join(' ');
      setMessage(
        rest || (fileProblem || nameProblem ? null : 'The file could not be imported. Please try again.'),
      );
    }
  };

  const sample = async () => {
    const { sampleUrl, sampleFileName } = importKinds[kind];
    try {
      await downloadSample({ url: sampleUrl, fileName: sampleFileName }).unwrap();
    } catch {
      setMessage('The sample file could not be downloaded.');
    }
  };

  const status = {
    editing: !file ? 'No file selected' : fileError ? 'Not an Excel file' : 'Ready to upload',
    uploading: 'Uploading…',
    starting: 'Starting the import…',
    failed: 'Not imported',
  }[phase];

  return (
    <Modal
      open={open}
      title="Import Excel"
      onClose={onClose}
      dismissible={!busy}
      footer={
        <>
          <button type="button" className="button button-secondary" disabled={busy} onClick={onClose}>
            Close
          </button>
          <button type="submit" form={formId} className="button button-primary" disabled={busy}>
            {busy ? 'Submitting…' : 'Submit'}
          </button>
        </>
      }
    >
      <form id={formId} className="form-stack" onSubmit={(event) => void submit(event)} noValidate>
        <div className={styles.field}>
          <label className={styles.label} htmlFor={fileId}>
            Excel file (.xlsx)
          </label>
          <input
            ref={fileInput}
            id={fileId}
            name="file"
            type="file"
            accept=".xlsx"
            className={styles.fileInput}
            disabled={busy}
            aria-invalid={fileError ? true : undefined}
            aria-describedby={fileError ? fileErrorId : undefined}
            onChange={choose}
          />
          {fileError && (
            <p id={fileErrorId} className={styles.error}>
              {fileError}
            </p>
          )}
        </div>
        <TextField
          label="Rename file (optional)"
          name="name"
          value={rename}
          placeholder={file ? file.name.replace(/\.xlsx$/i, '') : ''}
          autoComplete="off"
          disabled={busy}
          error={nameError ?? undefined}
          onChange={(event) => setRename(event.target.value)}
        />
        <dl className={styles.facts}>
          <div>
            <dt>Size</dt>
            <dd>{file ? fileSizeInMb(file.size) : '-'}</dd>
          </div>
          <div>
            <dt>Status</dt>
            <dd aria-live="polite">{status}</dd>
          </div>
        </dl>
        {message && (
          <p className={styles.message} role="alert">
            {message}
          </p>
        )}
        <p className={styles.sample}>
          Not sure of the columns?{' '}
          <button
            type="button"
            className={styles.linkButton}
            disabled={downloadingSample}
            onClick={() => void sample()}
          >
            Download sample file
          </button>
        </p>
      </form>
    </Modal>
  );
}
