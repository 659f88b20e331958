import { useEffect, useId, useState, type FormEvent } from 'react';
import type { NoticePageIntro } from '@notice-desk/contract/notice-page';
import { NoticePageCallError, verify } from './notice-page-api.ts';
import { lockOpensIn } from './notice-page-rules.ts';
import type { NoticePageWords } from './words.ts';
import styles from './notice-page.module.css';

type CheckStepProps = {
  code: string;
  /** The link's `?c=`: which message carried it. */
  channel: string | null;
  intro: NoticePageIntro;
  words: NoticePageWords;
  /** Said above the form (the page closed itself after a while). */
  notice: string | null;
  onVerified: (token: string) => void;
  onLockedUntil: (lockedUntil: string | null) => void;
  /** The link was revoked (or its record is no longer kept) while the page was open. */
  onUnavailable: () => void;
};

const isLocked = (lockedUntil: string | null) =>
  lockedUntil !== null && new Date(lockedUntil).getTime() > Date.now();

/** The check before anything personal shows: the last four digits of the mobile or account number. */
export function CheckStep({
  code,
  channel,
  intro,
  words,
  notice,
  onVerified,
  onLockedUntil,
  onUnavailable,
}: CheckStepProps) {
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const [answer, setAnswer] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const locked = isLocked(intro.lockedUntil);

  // The form opens again by itself when the lock runs out.
  useEffect(() => {
    if (!intro.lockedUntil || !locked) return;
    const timer = setTimeout(() => onLockedUntil(null), new Date(intro.lockedUntil).getTime() - Date.now());
    return () => clearTimeout(timer);
  }, [intro.lockedUntil, locked, onLockedUntil]);

  const refused = (failure: unknown) => {
    if (!(failure instanceof NoticePageCallError)) return setError(words.failed);
    if (failure.lockedUntil) return onLockedUntil(failure.lockedUntil);
    // Too many calls from this address: not the link's lock, a short wait.
    if (failure.status === 429) return setError(words.tooManyTries);
    if (failure.status === 404) return onUnavailable();
    // The form already holds four digits, so a refusal is a wrong answer.
    if (failure.status === 400 || failure.status === 401 || failure.status === 403) {
      return setError(words.wrongAnswer);
    }
    setError(words.failed);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{4}$/.test(answer.trim())) return setError(words.answerFormat);
    setBusy(true);
    setError(null);
    try {
      const { token } = await verify(code, answer.trim(), channel);
      onVerified(token);
    } catch (failure) {
      refused(failure);
      setBusy(false);
    }
  };

  const label = intro.asks === 'mobile' ? words.askMobile : words.askAccount;
  const shownError =
    locked && intro.lockedUntil
      ? words.locked(lockOpensIn(intro.lockedUntil, new Date(), intro.language))
      : error;

  return (
    <form className={styles.check} noValidate onSubmit={(event) => void submit(event)}>
      <h1 className={styles.title}>{words.pageTitle}</h1>
      {notice && <p className={styles.notice}>{notice}</p>}
      <p>{words.checkIntro}</p>
      <label className={styles.label} htmlFor={inputId}>
        {label}
      </label>
      <p id={hintId} className={styles.hint}>
        {words.answerHint}
      </p>
      <input
        id={inputId}
        className={styles.digits}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        pattern="[0-9]{4}"
        maxLength={4}
        value={answer}
        disabled={locked}
        aria-invalid={shownError ? true : undefined}
        aria-describedby={shownError ? `${hintId} ${errorId}` : hintId}
        onChange={(event) => setAnswer(event.target.value.replace(/\D/g, '').slice(0, 4))}
      />
      <p id={errorId} className={styles.error} role="alert">
        {shownError}
      </p>
      <button type="submit" className={`button button-primary ${styles.action}`} disabled={busy || locked}>
        {busy ? words.checking : words.continue}
      </button>
    </form>
  );
}
