import { useState } from 'react';
import { NoticePageCallError } from './notice-page-api.ts';
import type { NoticePageWords } from './words.ts';

/** What ends the visit's second step: the token ran out, or the link was revoked meanwhile. */
export type VisitEnds = { onSessionEnded: () => void; onUnavailable: () => void };

/** Hands a failure that ends the visit to its handler; false for any other failure. */
export function endsVisit(failure: unknown, { onSessionEnded, onUnavailable }: VisitEnds): boolean {
  if (!(failure instanceof NoticePageCallError)) return false;
  if (failure.status === 401) onSessionEnded();
  else if (failure.code === 'NOT_AVAILABLE') onUnavailable();
  else return false;
  return true;
}

/**
 * One of the recipient's answers (acknowledge, dispute, settle, call back): while it is sent, the
 * message when it fails, and the time it was recorded, which then stays on the page.
 */
export function useAnswer(words: NoticePageWords, ends: VisitEnds, recordedAt: string | null = null) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [doneAt, setDoneAt] = useState<string | null>(recordedAt);

  /** Sends the answer; `explain` may name a refusal more precisely than 'did not go through'. */
  const run = async (
    send: () => Promise<{ at: string }>,
    explain: (failure: NoticePageCallError) => string | null = () => null,
  ) => {
    setBusy(true);
    setError(null);
    try {
      setDoneAt((await send()).at);
    } catch (failure) {
      if (endsVisit(failure, ends)) return;
      setError((failure instanceof NoticePageCallError && explain(failure)) || words.failed);
    } finally {
      setBusy(false);
    }
  };

  return { busy, error, doneAt, run };
}
