import { useMemo, useRef, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import {
  normalArticleNumber,
  postPaths,
  s10Problem,
  type PostOverview,
  type PostRecord,
} from '@notice-desk/contract/post';
import { DownloadButton } from '../../../components/ui/download-button.tsx';
import { readApiProblem } from '../../../lib/api-error.ts';
import {
  useAssignArticlesMutation,
  useGetPostOverviewQuery,
  useImportTrackingMutation,
  useUploadProofsMutation,
} from '../api/post-api.ts';
import styles from './post-panel.module.css';

const channelNames: [keyof PostOverview['channels'], string][] = [
  ['email', 'E-mail'],
  ['whatsapp', 'WhatsApp'],
  ['sms', 'SMS'],
  ['speed_post', 'Speed Post'],
  ['rpad', 'Registered Post A.D.'],
  ['courier', 'Courier'],
  ['unknown', 'Not understood'],
];

const statusWords: Record<NonNullable<PostRecord['status']>, string> = {
  booked: 'Booked',
  in_transit: 'In transit',
  delivered: 'Delivered',
  returned: 'Returned',
};

const failed = (what: string) => (problem: unknown) => {
  console.error(`Downloading the ${what} failed.`, problem);
  toast.error(`Error downloading the ${what}.`);
};

type PostPanelProps = { campaignId: string; campaignName: string };

/**
 * A notice campaign's post: records per Mode Of Dispatch channel, the downloads for the print room and
 * the post office, the scan of article numbers in print order, and the tracking and AD-card uploads.
 */
export function PostPanel({ campaignId, campaignName }: PostPanelProps) {
  const { data } = useGetPostOverviewQuery(campaignId);
  const [scanning, setScanning] = useState(false);
  if (!data) return null;
  const letters = data.records.length;
  return (
    <section className={`panel ${styles.panel}`} aria-labelledby="post-heading">
      <h2 id="post-heading">Post</h2>
      <dl className={styles.counts} aria-label="Records per channel of their Mode Of Dispatch">
        {channelNames.map(([key, name]) => (
          <div key={key}>
            <dt>{name}</dt>
            <dd>{data.channels[key]}</dd>
          </div>
        ))}
      </dl>
      {data.unknownValues.length > 0 && (
        <p className={styles.note} role="note">
          Mode Of Dispatch not understood (not sent by post until corrected):{' '}
          {data.unknownValues.map((u) => `'${u.value}' (${u.records})`).join(', ')}
        </p>
      )}
      {letters === 0 ? (
        <p>No record of this campaign names Speed Post, registered post or courier.</p>
      ) : (
        <>
          <p>
            {letters} letter{letters === 1 ? '' : 's'} in PIN code order; window envelope {data.envelope}.
          </p>
          <div className={styles.actions}>
            <DownloadButton
              url={postPaths.print(campaignId)}
              fileName={`${campaignName} print.pdf`}
              label="Print file"
              busyLabel="Preparing…"
              onFailed={failed('print file')}
              small
            />
            <DownloadButton
              url={postPaths.labels(campaignId, '2x7')}
              fileName={`${campaignName} labels 2x7.pdf`}
              label="Labels 2 × 7"
              busyLabel="Preparing…"
              onFailed={failed('labels')}
              small
            />
            <DownloadButton
              url={postPaths.labels(campaignId, '3x8')}
              fileName={`${campaignName} labels 3x8.pdf`}
              label="Labels 3 × 8"
              busyLabel="Preparing…"
              onFailed={failed('labels')}
              small
            />
            <DownloadButton
              url={postPaths.bookingXlsx(campaignId)}
              fileName={`${campaignName} booking.xlsx`}
              label="Booking list (.xlsx)"
              busyLabel="Preparing…"
              onFailed={failed('booking list')}
              small
            />
            <DownloadButton
              url={postPaths.bookingCsv(campaignId)}
              fileName={`${campaignName} booking.csv`}
              label="Booking list (.csv)"
              busyLabel="Preparing…"
              onFailed={failed('booking list')}
              small
            />
          </div>
          {scanning ? (
            <ScanSession campaignId={campaignId} records={data.records} onDone={() => setScanning(false)} />
          ) : (
            <button type="button" className="button button-primary" onClick={() => setScanning(true)}>
              Scan article numbers
            </button>
          )}
          <Uploads campaignId={campaignId} />
          <LetterList records={data.records} />
        </>
      )}
    </section>
  );
}

/**
 * A barcode scanner types the number and Enter: the record shown is given the number read, and the
 * next one without a number is shown. Keyboard only; a wrong number is said and the field cleared.
 */
function ScanSession({
  campaignId,
  records,
  onDone,
}: {
  campaignId: string;
  records: PostRecord[];
  onDone: () => void;
}) {
  const waiting = useMemo(() => records.filter((r) => !r.articleNumber), [records]);
  const [skipped, setSkipped] = useState(0);
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [assign, { isLoading }] = useAssignArticlesMutation();
  const input = useRef<HTMLInputElement>(null);
  const current = waiting[skipped];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!current) return;
    const number = normalArticleNumber(value);
    const local = s10Problem(number);
    if (local) {
      setProblem(local);
      setValue('');
      return;
    }
    try {
      await assign({ campaignId, body: [{ loanNo: current.loanNo, articleNumber: number }] }).unwrap();
      setProblem(null);
      setValue('');
    } catch (error) {
      setProblem(readApiProblem(error).message ?? 'The number could not be saved.');
      setValue('');
    }
    input.current?.focus();
  };

  if (!current)
    return (
      <div className={styles.scan} role="status">
        <p>Every letter has its article number.</p>
        <button type="button" className="button button-secondary" onClick={onDone}>
          Close
        </button>
      </div>
    );
  return (
    <form className={styles.scan} onSubmit={(event) => void submit(event)} aria-label="Scan article numbers">
      <p className={styles.progress}>
        Letter {records.indexOf(current) + 1} of {records.length} ({waiting.length - skipped} without a
        number)
      </p>
      <div className={styles.current} aria-live="polite">
        <strong>{current.custName}</strong>
        <span>Loan {current.loanNo}</span>
        {current.address.map((line, i) => (
          <span key={i}>{line}</span>
        ))}
      </div>
      <label htmlFor="article-number">Article number</label>
      <input
        id="article-number"
        ref={input}
        autoFocus
        autoComplete="off"
        spellCheck={false}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        aria-invalid={problem !== null}
        aria-describedby={problem ? 'article-problem' : undefined}
        disabled={isLoading}
        placeholder="EE123456785IN"
      />
      {problem && (
        <p id="article-problem" className={styles.problem} role="alert">
          {problem}
        </p>
      )}
      <div className={styles.actions}>
        <button type="submit" className="button button-primary" disabled={isLoading || !value.trim()}>
          Save and next
        </button>
        <button type="button" className="button button-secondary" onClick={() => setSkipped((n) => n + 1)}>
          Skip
        </button>
        <button type="button" className="button button-secondary" onClick={onDone}>
          Stop
        </button>
      </div>
    </form>
  );
}

/** The three uploads: article numbers (.xlsx/.csv), tracking (.xlsx/.csv), AD cards (.zip). */
function Uploads({ campaignId }: { campaignId: string }) {
  const [assign] = useAssignArticlesMutation();
  const [track] = useImportTrackingMutation();
  const [proofs] = useUploadProofsMutation();
  const run = async (what: Promise<{ message: string }>) => {
    try {
      toast.success((await what).message);
    } catch (error) {
      toast.error(readApiProblem(error).message ?? 'The upload failed.');
    }
  };
  const picker = (label: string, accept: string, onFile: (file: File) => Promise<{ message: string }>) => (
    <label className={`button button-secondary button-small ${styles.upload}`}>
      {label}
      <input
        type="file"
        accept={accept}
        className="visually-hidden"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void run(onFile(file));
        }}
      />
    </label>
  );
  return (
    <div className={styles.actions}>
      {picker('Import article numbers', '.xlsx,.csv', (file) => assign({ campaignId, body: file }).unwrap())}
      {picker('Import tracking', '.xlsx,.csv', (file) => track(file).unwrap())}
      {picker('Upload AD cards (.zip)', '.zip', (file) => proofs({ campaignId, file }).unwrap())}
    </div>
  );
}

/** The letters as cards: who, where, the article number and where it is. */
function LetterList({ records }: { records: PostRecord[] }) {
  return (
    <ol className={styles.letters} aria-label="Letters in print order">
      {records.slice(0, 200).map((r) => (
        <li key={r._id}>
          <strong>{r.custName}</strong> <span>{r.pinCode || 'no PIN'}</span>
          <span className={styles.mono}>{r.articleNumber ?? '—'}</span>
          <span>
            {r.status ? statusWords[r.status] : 'Not booked'}
            {r.returnReason ? ` (${r.returnReason.replace(/_/g, ' ')})` : ''}
            {r.proofSha256 ? ' · proof kept' : ''}
          </span>
        </li>
      ))}
    </ol>
  );
}
