import { useState } from 'react';
import { NoticePageCallError } from './notice-page-api.ts';
import type { NoticePageWords } from './words.ts';

/**
 * One of the recipient's answers (acknowledge, dispute, settle, call back): while it is sent, the
 * message when it fails, and the time it was recorded, which then stays on the page.
 */
export function useAnswer(
  words: NoticePageWords,
  onSessionEnded: () => void,
  recordedAt: string | null = null,
) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [doneAt, setDoneAt] = useState<string | null>(recordedAt);

  const run = async (send: () => Promise<{ at: string }>) => {
    setBusy(true);
    setError(null);
    try {
      setDoneAt((await send()).at);
    } catch (failure) {
      if (failure instanceof NoticePageCallError && failure.status === 401) return onSessionEnded();
      setError(words.failed);
    } finally {
      setBusy(false);
    }
  };

  return { busy, error, doneAt, run };
}
