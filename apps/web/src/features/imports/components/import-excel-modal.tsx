import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import type { ColumnMapping, DuplicateChoice, ImportPreview } from '@notice-desk/contract/imports';
import toast from 'react-hot-toast';
import { Modal } from '../../../components/ui/modal.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { readApiProblem } from '../../../lib/api-error.ts';
import { useDownloadFileMutation } from '../../../lib/download-api.ts';
import { useAppDispatch } from '../../../lib/store.ts';
import {
  useLazyGetImportPreviewQuery,
  useStartImportMutation,
  useUploadImportFileMutation,
} from '../api/imports-api.ts';
import { importStarted } from '../stores/import-tracker.ts';
import {
  campaignNameFor,
  fileSizeInMb,
  importFileAccept,
  importFileError,
  uploadNameFor,
} from '../utils/import-file.ts';
import { mappingOf } from '../utils/column-mapping.ts';
import { importKinds, type ImportKind } from '../utils/import-kinds.ts';
import styles from './import-excel-modal.module.css';
import { ReviewMapping } from './review-mapping.tsx';

type Phase = 'editing' | 'uploading' | 'checking' | 'scanning' | 'review' | 'starting' | 'failed';

type ImportExcelModalProps = {
  kind: ImportKind;
  open: boolean;
  onClose: () => void;
};

/**
 * The spec's Import Excel modal: choose an .xlsx, optionally rename it, see its size and status,
 * Close or Submit. Submit uploads the file, looks at how it maps, and when nothing needs a decision
 * starts the import with the stored name and leaves the progress to the list page. When a required
 * field has no column, or two columns fit one field, the Review mapping step opens instead; 'Review
 * mapping' opens it on purpose. Import there starts the import with the mapping as confirmed.
 */
export function ImportExcelModal({ kind, open, onClose }: ImportExcelModalProps) {
  const dispatch = useAppDispatch();
  const [upload] = useUploadImportFileMutation();
  const [start] = useStartImportMutation();
  const [checkMapping] = useLazyGetImportPreviewQuery();
  const [downloadSample, { isLoading: downloadingSample }] = useDownloadFileMutation();

  const [file, setFile] = useState<File | null>(null);
  const [rename, setRename] = useState('');
  const [fileError, setFileError] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>('editing');
  // The chosen file once stored, so Review mapping and Import do not upload it again.
  const [stored, setStored] = useState<{ file: File; name: string } | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [mapping, setMapping] = useState<ColumnMapping | null>(null);
  const [duplicates, setDuplicates] = useState<DuplicateChoice>('skip');
  const fileInput = useRef<HTMLInputElement>(null);
  const formId = useId();
  const fileId = useId();
  const fileErrorId = `${fileId}-error`;
  const fileFormatsId = `${fileId}-formats`;
  const busy = phase === 'uploading' || phase === 'checking' || phase === 'scanning' || phase === 'starting';
  const reviewing = preview !== null;

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0] ?? null;
    setFile(chosen);
    // A wrong file is pointed out at once; a cleared choice waits for Submit.
    setFileError(chosen ? importFileError(chosen) : null);
    setNameError(null);
    setMessage(null);
    setPhase('editing');
    setStored(null);
    setPreview(null);
    setMapping(null);
    setDuplicates('skip');
  };

  /** The chosen file's stored name: uploaded once, then reused. */
  const storedName = async (chosen: File): Promise<string> => {
    if (stored?.file === chosen) return stored.name;
    setPhase('uploading');
    const { data } = await upload({ kind, file: chosen, name: uploadNameFor(chosen.name, rename) }).unwrap();
    setStored({ file: chosen, name: data });
    return data;
  };

  const startImport = async (chosen: File, name: string, confirmed: ColumnMapping) => {
    setPhase('starting');
    const campaignName = campaignNameFor(chosen.name, rename);
    const started = await start({
      kind,
      file: name,
      ...(campaignName && { name: campaignName }),
      mapping: confirmed,
      duplicates,
    }).unwrap();
    dispatch(importStarted({ kind, jobId: started.jobId }));
    toast.success(started.message);
    onClose();
  };

  /** Submit, Review mapping and Import: each checks the file first, and says what went wrong. */
  const run = async (step: 'submit' | 'review') => {
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
      const name = await storedName(file);
      if (reviewing) {
        if (mapping) await startImport(file, name, mapping);
        return;
      }
      setPhase('checking');
      const found = await checkMapping({ kind, file: name, scan: false }).unwrap();
      if (step === 'submit' && found.complete) {
        // Rows already imported are a decision too: the whole file is read for them first.
        setPhase('scanning');
        const scanned = await checkMapping({ kind, file: name, scan: true }).unwrap();
        if (!scanned.duplicates?.existing) {
          // The spec's flow: nothing to decide, so straight to the progress bar.
          await startImport(file, name, mappingOf(found));
          return;
        }
        setPreview(scanned);
        setPhase('review');
        return;
      }
      setPreview(found);
      setPhase('review');
    } catch (error) {
      setPhase(reviewing ? 'review' : 'failed');
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

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run('submit');
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
    checking: 'Checking the columns…',
    scanning: 'Looking for rows already imported…',
    review: mapping ? 'Ready to import' : 'A column needs a decision',
    starting: 'Starting the import…',
    failed: 'Not imported',
  }[phase];

  return (
    <Modal
      open={open}
      title="Import Excel"
      onClose={onClose}
      dismissible={!busy}
      // Review mapping needs the room: a choice per column, the first rows as they will be stored.
      wide={reviewing}
      footer={
        <>
          <button type="button" className="button button-secondary" disabled={busy} onClick={onClose}>
            Close
          </button>
          {!reviewing && (
            <button
              type="button"
              className="button button-secondary"
              disabled={busy}
              onClick={() => void run('review')}
            >
              Review mapping
            </button>
          )}
          {reviewing ? (
            <button type="submit" form={formId} className="button button-primary" disabled={busy || !mapping}>
              {busy ? 'Importing…' : 'Import'}
            </button>
          ) : (
            <button type="submit" form={formId} className="button button-primary" disabled={busy}>
              {busy ? 'Submitting…' : 'Submit'}
            </button>
          )}
        </>
      }
    >
      <form id={formId} className="form-stack" onSubmit={submit} noValidate>
        {/* The file, its name and status: one line above Review mapping, whose message comes next. */}
        <div className={reviewing ? styles.fileRow : styles.fileStack}>
          <div className={styles.field}>
            <label className={styles.label} htmlFor={fileId}>
              Excel file (.xlsx)
            </label>
            <input
              ref={fileInput}
              id={fileId}
              name="file"
              type="file"
              accept={importFileAccept}
              className={styles.fileInput}
              disabled={busy || reviewing}
              aria-invalid={fileError ? true : undefined}
              aria-describedby={fileError ? `${fileFormatsId} ${fileErrorId}` : fileFormatsId}
              onChange={choose}
            />
            <p id={fileFormatsId} className={styles.formats}>
              Also takes .csv, .tsv and Excel&apos;s Unicode Text (.txt).
            </p>
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
            disabled={busy || reviewing}
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
        </div>
        {message && (
          <p className={styles.message} role="alert">
            {message}
          </p>
        )}
        {preview && stored && (
          <ReviewMapping
            kind={kind}
            file={stored.name}
            initial={preview}
            onChange={setMapping}
            duplicates={duplicates}
            onDuplicatesChange={setDuplicates}
          />
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
