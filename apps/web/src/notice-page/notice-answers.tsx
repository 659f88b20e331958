import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import type { NoticePageDetails } from '@notice-desk/contract/notice-page';
import { paths } from '../config/paths.ts';
import { useMediaQuery } from '../hooks/use-media-query.ts';
import { acknowledge, notePaymentLinkOpened, respond } from './notice-page-api.ts';
import {
  disputeFileAccept,
  disputeFileProblem,
  DISPUTE_TEXT_MAX_LENGTH,
  formatAt,
} from './notice-page-rules.ts';
import { UpiQr } from './upi-qr.tsx';
import { useAnswer, type VisitEnds } from './use-answer.ts';
import type { NoticePageWords } from './words.ts';
import styles from './notice-page.module.css';

type AnswersProps = {
  code: string;
  token: string;
  details: NoticePageDetails;
  words: NoticePageWords;
  ends: VisitEnds;
};

/** A phone opens a upi:// link in its UPI app; a desktop cannot, so it shows the QR code to scan. */
const PHONE_QUERY = '(max-width: 639px), (pointer: coarse)';

/** The recipient's four answers; each one's confirmation stays on the page once recorded. */
export function NoticeAnswers(props: AnswersProps) {
  return (
    <section className={styles.section} aria-labelledby="notice-answers-heading">
      <h2 id="notice-answers-heading" className={styles.heading}>
        {props.words.actionsHeading}
      </h2>
      <AcknowledgeAnswer {...props} />
      <DisputeAnswer {...props} />
      <SettleAnswer {...props} />
      <CallAnswer {...props} />
    </section>
  );
}

/**
 * An answer's confirmation, which stays. Focus moves onto it when it replaces the button just pressed,
 * so a keyboard or screen reader is not left on nothing; one already recorded on arrival takes none.
 */
function Confirmation({ children, takeFocus = true }: { children: ReactNode; takeFocus?: boolean }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (takeFocus) ref.current?.focus();
  }, [takeFocus]);
  return (
    <p ref={ref} className={styles.confirmation} role="status" tabIndex={-1}>
      {children}
    </p>
  );
}

function AnswerError({ message }: { message: string | null }) {
  return message ? (
    <p className={styles.error} role="alert">
      {message}
    </p>
  ) : null;
}

function AcknowledgeAnswer({ code, token, details, words, ends }: AnswersProps) {
  const answer = useAnswer(words, ends, details.acknowledgedAt);
  return (
    <div className={styles.answer}>
      {answer.doneAt ? (
        <Confirmation takeFocus={answer.doneAt !== details.acknowledgedAt}>
          {words.acknowledged(formatAt(answer.doneAt, details.timeZone))}
        </Confirmation>
      ) : (
        <button
          type="button"
          className={`button button-primary ${styles.action}`}
          disabled={answer.busy}
          onClick={() => void answer.run(() => acknowledge(code, token))}
        >
          {answer.busy ? words.sending : words.acknowledge}
        </button>
      )}
      <AnswerError message={answer.error} />
    </div>
  );
}

function DisputeAnswer({ code, token, details, words, ends }: AnswersProps) {
  const textId = useId();
  const fileId = useId();
  const fileHintId = useId();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const answer = useAnswer(words, ends);

  if (answer.doneAt) {
    return (
      <div className={styles.answer}>
        <Confirmation>{words.disputed(formatAt(answer.doneAt, details.timeZone))}</Confirmation>
      </div>
    );
  }

  const chooseFile = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0] ?? null;
    const problem = chosen && disputeFileProblem(chosen);
    if (problem) {
      // Refused here, before any upload: the server would refuse it after the whole file came.
      event.target.value = '';
      setFile(null);
      setFormError(words[problem]);
      return;
    }
    setFile(chosen);
    setFormError(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim() && !file) return setFormError(words.disputeEmpty);
    setFormError(null);
    void answer.run(
      () => respond(code, token, 'dispute', text.trim(), file ?? undefined),
      // The server judges a file by its bytes: a renamed file the browser let through ends here.
      ({ status }) => (status === 413 ? words.fileTooLarge : status === 415 ? words.fileWrongType : null),
    );
  };

  return (
    <div className={styles.answer}>
      <button
        type="button"
        className={`button button-secondary ${styles.action}`}
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        {words.dispute}
      </button>
      {open && (
        <form className={styles.disputeForm} noValidate onSubmit={submit}>
          <label className={styles.label} htmlFor={textId}>
            {words.disputeText}
          </label>
          <textarea
            id={textId}
            className={styles.text}
            rows={5}
            maxLength={DISPUTE_TEXT_MAX_LENGTH}
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
          <p className={styles.hint}>{words.disputeTextHint}</p>
          <label className={styles.label} htmlFor={fileId}>
            {words.disputeFile}
          </label>
          <input
            id={fileId}
            className={styles.file}
            type="file"
            accept={disputeFileAccept}
            aria-describedby={fileHintId}
            onChange={chooseFile}
          />
          <p id={fileHintId} className={styles.hint}>
            {words.disputeFileHint}
          </p>
          <AnswerError message={formError ?? answer.error} />
          <button type="submit" className={`button button-primary ${styles.action}`} disabled={answer.busy}>
            {answer.busy ? words.sending : words.sendDispute}
          </button>
        </form>
      )}
    </div>
  );
}

function SettleAnswer({ code, token, details, words, ends }: AnswersProps) {
  const onPhone = useMediaQuery(PHONE_QUERY);
  const answer = useAnswer(words, ends);
  const upi = details.upi;
  return (
    <div className={styles.answer}>
      {answer.doneAt ? (
        <Confirmation>{words.settled(formatAt(answer.doneAt, details.timeZone))}</Confirmation>
      ) : (
        <button
          type="button"
          className={`button button-secondary ${styles.action}`}
          disabled={answer.busy}
          onClick={() => void answer.run(() => respond(code, token, 'settle', ''))}
        >
          {answer.busy ? words.sending : words.settle}
        </button>
      )}
      <AnswerError message={answer.error} />
      {answer.doneAt &&
        upi &&
        (onPhone ? (
          <a
            className={`button button-primary ${styles.action}`}
            href={upi.link}
            onClick={() => void notePaymentLinkOpened(code, token)}
          >
            {words.payWithUpi}
          </a>
        ) : (
          <figure className={styles.qr}>
            <UpiQr link={upi.link} label={words.payWithUpi} />
            <figcaption>{words.scanToPay}</figcaption>
          </figure>
        ))}
    </div>
  );
}

function CallAnswer({ code, token, details, words, ends }: AnswersProps) {
  const answer = useAnswer(words, ends);
  return (
    <div className={styles.answer}>
      {details.callNumber && (
        <a
          className={`button button-secondary ${styles.action}`}
          href={paths.phoneCall.getHref(details.callNumber)}
        >
          {words.callUs(details.callNumber)}
        </a>
      )}
      {answer.doneAt ? (
        <Confirmation>{words.callBackAsked(formatAt(answer.doneAt, details.timeZone))}</Confirmation>
      ) : (
        <button
          type="button"
          className={`button button-secondary ${styles.action}`}
          disabled={answer.busy}
          onClick={() => void answer.run(() => respond(code, token, 'callback', ''))}
        >
          {answer.busy ? words.sending : words.askCallBack}
        </button>
      )}
      <AnswerError message={answer.error} />
    </div>
  );
}
