import { useCallback, useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import type { CampaignType } from '@notice-desk/contract/campaigns';
import { api } from '../../../lib/api.ts';
import { toastApiProblem } from '../../../lib/api-error.ts';
import { useAppDispatch } from '../../../lib/store.ts';
import { useSendMailMutation } from '../api/campaigns-api.ts';
import {
  addAnswer,
  addUnsent,
  emptyTally,
  sendChunks,
  sendProgress,
  sendSummary,
} from '../utils/send-batches.ts';

export const NOTHING_SELECTED = 'Please select Items';
export const SEND_SUCCESS = 'Send Mail Successfully.';
/** The spec's pause before the bar hides once a batch send is over. */
export const BAR_HIDE_DELAY_MS = 5_000;

/**
 * 'Send Notice' as the spec's state rules say: nothing selected is an error; up to 9 records go in
 * one request; more go in chunks of 10, one after another, while a progress bar advances. Then the
 * campaign is refreshed, 'Send Mail Successfully.' shows and the bar hides 5 seconds later.
 */
export function useSendNotices(type: CampaignType) {
  const dispatch = useAppDispatch();
  const [sendMail] = useSendMailMutation();
  const [sending, setSending] = useState(false);
  /** The bar's value during and just after a batch send; null when no bar shows. */
  const [progress, setProgress] = useState<number | null>(null);
  /** What the last send came to, when it was more than 'all sent'. */
  const [summary, setSummary] = useState<string | null>(null);
  // A ref as well as state: a second click before the re-render must not start a second run.
  const running = useRef(false);
  const hideBar = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(hideBar.current), []);

  const send = useCallback(
    async (recordIds: readonly string[]) => {
      if (recordIds.length === 0) {
        toast.error(NOTHING_SELECTED);
        return;
      }
      if (running.current) return;
      running.current = true;
      setSending(true);
      setSummary(null);
      clearTimeout(hideBar.current);

      const chunks = sendChunks(recordIds);
      const batched = chunks.length > 1;
      setProgress(batched ? sendProgress(0, chunks.length) : null);
      let tally = emptyTally();
      let lastProblem: unknown = null;
      for (const [index, chunk] of chunks.entries()) {
        try {
          tally = addAnswer(tally, await sendMail({ data: chunk, type }).unwrap());
        } catch (problem) {
          // The spec: a failed batch request is only logged, and the remaining chunks still go.
          console.error(`Sending chunk ${index + 1} of ${chunks.length} failed.`, problem);
          tally = addUnsent(tally, chunk.length);
          lastProblem = problem;
        }
        if (batched) setProgress(sendProgress(index + 1, chunks.length));
      }

      // Statuses changed on this page, and the dashboard's mail details with them.
      dispatch(api.util.invalidateTags(['Campaigns', 'DashboardInfo']));
      // 'Send Mail Successfully.' only when the server took at least one request: when none got
      // through, nothing was sent, and saying so is the one message that helps.
      if (tally.answered > 0) toast.success(SEND_SUCCESS);
      else toastApiProblem(lastProblem, 'The notices could not be sent.');
      setSummary(sendSummary(tally));
      if (batched) hideBar.current = setTimeout(() => setProgress(null), BAR_HIDE_DELAY_MS);
      running.current = false;
      setSending(false);
    },
    [dispatch, sendMail, type],
  );

  const dismissSummary = useCallback(() => setSummary(null), []);

  return { send, sending, progress, summary, dismissSummary };
}
