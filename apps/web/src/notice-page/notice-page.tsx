import { useCallback, useEffect, useMemo, useState } from 'react';
import type { NoticePageIntro } from '@notice-desk/contract/notice-page';
import { CheckStep } from './check-step.tsx';
import { DetailsStep } from './details-step.tsx';
import { LoadFailed, Loading } from './load-states.tsx';
import { getIntro } from './notice-page-api.ts';
import { fontsLoadedFor } from './script-fonts.ts';
import { primaryLanguage, wordsFor } from './words.ts';
import styles from './notice-page.module.css';

type Step =
  | { name: 'loading' }
  | { name: 'load-failed' }
  | { name: 'unavailable'; language: string }
  /** `sessionEnded`: the visit's token ran out, so the check is asked again, saying why. */
  | { name: 'check'; intro: NoticePageIntro; sessionEnded: boolean }
  | { name: 'details'; intro: NoticePageIntro; token: string };

type NoticePageProps = {
  code: string;
  /** The link's `?c=`: which message carried it, kept with the visit's events. */
  channel: string | null;
};

/** /n/:code, public: who sent the notice and the check, then the notice and the recipient's answers. */
export function NoticePage({ code, channel }: NoticePageProps) {
  const [step, setStep] = useState<Step>({ name: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    getIntro(code, channel).then(
      async (intro) => {
        const words = wordsFor(intro.language);
        await fontsLoadedFor(
          [words.pageTitle, words.sentBy, words.unavailable, intro.sender.name, intro.sender.address].join(
            ' ',
          ),
        );
        if (!current) return;
        setStep(
          intro.available
            ? { name: 'check', intro, sessionEnded: false }
            : { name: 'unavailable', language: intro.language },
        );
      },
      (error: unknown) => {
        if (!current) return;
        const status = (error as { status?: number }).status;
        // An unknown code and a revoked one read the same: nothing tells them apart.
        setStep(
          status === 404 || status === 410
            ? { name: 'unavailable', language: 'en' }
            : { name: 'load-failed' },
        );
      },
    );
    return () => {
      current = false;
    };
  }, [code, channel, attempt]);

  const language =
    step.name === 'check' || step.name === 'details'
      ? step.intro.language
      : step.name === 'unavailable'
        ? step.language
        : 'en';
  const words = wordsFor(language);

  useEffect(() => {
    document.documentElement.lang = language;
    document.title = words.pageTitle;
  }, [language, words.pageTitle]);

  const intro = step.name === 'check' || step.name === 'details' ? step.intro : null;
  const verified = useCallback(
    (token: string) => intro && setStep({ name: 'details', intro, token }),
    [intro],
  );
  const ends = useMemo(
    () => ({
      onSessionEnded: () => intro && setStep({ name: 'check', intro, sessionEnded: true }),
      onUnavailable: () => setStep({ name: 'unavailable', language }),
    }),
    [intro, language],
  );
  const lockedUntilChanged = useCallback(
    (lockedUntil: string | null) =>
      intro && setStep({ name: 'check', intro: { ...intro, lockedUntil }, sessionEnded: false }),
    [intro],
  );

  return (
    <main
      lang={language}
      className={primaryLanguage(language) === 'en' ? styles.page : `${styles.page} ${styles.oneWeight}`}
    >
      <div className={styles.card}>
        {step.name === 'loading' && <Loading words={words} />}
        {step.name === 'load-failed' && (
          <LoadFailed
            words={words}
            onRetry={() => {
              setStep({ name: 'loading' });
              setAttempt((count) => count + 1);
            }}
          />
        )}
        {step.name === 'unavailable' && <h1 className={styles.title}>{words.unavailable}</h1>}
        {intro && (
          <>
            <header className={styles.sender}>
              <p className={styles.senderLabel}>{words.sentBy}</p>
              <p className={styles.senderName}>{intro.sender.name}</p>
              <p className={styles.senderAddress}>{intro.sender.address}</p>
            </header>
            {step.name === 'check' && (
              <CheckStep
                code={code}
                channel={channel}
                intro={step.intro}
                words={words}
                notice={step.sessionEnded ? words.sessionEnded : null}
                onVerified={verified}
                onLockedUntil={lockedUntilChanged}
                onUnavailable={ends.onUnavailable}
              />
            )}
            {step.name === 'details' && (
              <DetailsStep code={code} token={step.token} words={words} ends={ends} />
            )}
          </>
        )}
      </div>
    </main>
  );
}
