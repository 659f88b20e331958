import { useEffect, useRef, useState } from 'react';
import type { NoticePageDetails } from '@notice-desk/contract/notice-page';
import { saveFile } from '../utils/save-file.ts';
import { LoadFailed, Loading } from './load-states.tsx';
import { NoticeAnswers } from './notice-answers.tsx';
import { getDetails, getPdf } from './notice-page-api.ts';
import { fontsLoadedFor } from './script-fonts.ts';
import { endsVisit, type VisitEnds } from './use-answer.ts';
import type { NoticePageWords } from './words.ts';
import styles from './notice-page.module.css';

type DetailsStepProps = {
  code: string;
  token: string;
  words: NoticePageWords;
  ends: VisitEnds;
};

/** After the check: whose notice, what is due and by when, the served PDF, and the answers. */
export function DetailsStep({ code, token, words, ends }: DetailsStepProps) {
  const [details, setDetails] = useState<NoticePageDetails | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const titleRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    let current = true;
    getDetails(code, token).then(
      async (loaded) => {
        // A name in another script than the page's words: its face first (see fontsLoadedFor).
        await fontsLoadedFor(loaded.customerName);
        if (current) setDetails(loaded);
      },
      (failure: unknown) => {
        if (!current) return;
        if (!endsVisit(failure, ends)) setFailed(true);
      },
    );
    return () => {
      current = false;
    };
  }, [code, token, attempt, ends]);

  // The check's form is gone: focus goes to the notice's heading, not to the page's start.
  useEffect(() => {
    if (details) titleRef.current?.focus();
  }, [details]);

  if (failed) {
    return (
      <LoadFailed
        words={words}
        onRetry={() => {
          setFailed(false);
          setAttempt((count) => count + 1);
        }}
      />
    );
  }
  if (!details) return <Loading words={words} />;

  return (
    <>
      <h1 ref={titleRef} className={styles.title} tabIndex={-1}>
        {words.pageTitle}
      </h1>
      <dl className={styles.facts}>
        <div>
          <dt>{words.customer}</dt>
          <dd>{details.customerName}</dd>
        </div>
        <div>
          <dt>{words.reference}</dt>
          <dd>{details.reference}</dd>
        </div>
        <div>
          <dt>{words.amountDue}</dt>
          <dd className={styles.amount}>{details.amountDue ?? words.notSet}</dd>
        </div>
        <div>
          <dt>{words.respondBy}</dt>
          <dd>{details.respondBy ?? words.notSet}</dd>
        </div>
      </dl>
      <section className={styles.section} aria-labelledby="notice-pdf-heading">
        <h2 id="notice-pdf-heading" className={styles.heading}>
          {words.noticeHeading}
        </h2>
        <PdfDownload code={code} token={token} words={words} ends={ends} />
        {details.pdfSha256 && (
          <p className={styles.fingerprint}>
            {words.pdfFingerprint}: <code>{details.pdfSha256}</code>
          </p>
        )}
      </section>
      <NoticeAnswers code={code} token={token} details={details} words={words} ends={ends} />
    </>
  );
}

/**
 * The PDF takes the visit's token in a header, so a plain link cannot fetch it: the button fetches the
 * bytes and hands them to the browser's save (or open) flow.
 */
function PdfDownload({ code, token, words, ends }: DetailsStepProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      saveFile(await getPdf(code, token), 'notice.pdf');
    } catch (failure) {
      if (!endsVisit(failure, ends)) setError(words.failed);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        className={`button button-primary ${styles.action}`}
        disabled={busy}
        onClick={() => void download()}
      >
        {busy ? words.downloadingPdf : words.downloadPdf}
      </button>
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
    </>
  );
}
