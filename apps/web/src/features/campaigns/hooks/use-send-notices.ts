import { useCallback, useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import type { CampaignType } from '@notice-desk/contract/campaigns';
import type { SendResult } from '@notice-desk/contract/sending';
import { api } from '../../../lib/api.ts';
import { toastApiProblem } from '../../../lib/api-error.ts';
import { useAppDispatch } from '../../../lib/store.ts';
import { useSendMailMutation } from '../api/campaigns-api.ts';
import {
  addAnswer,
  addDeclined,
  addServedDeclined,
  addUnsent,
  emptyTally,
  sendCaption,
  sendChunks,
  sendProgress,
  sendRateText,
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
  /** Under the bar: what it counts, in records ('Sending notices: 200 of 1,000 records'). */
  const [caption, setCaption] = useState<string | null>(null);
  /** Beside the bar: the messages a second achieved, and a provider limit holding it back ('WhatsApp limited to 20/s'). */
  const [rate, setRate] = useState<string | null>(null);
  /** What the last send came to, when it was more than 'all sent'. */
  const [summary, setSummary] = useState<string | null>(null);
  // A ref as well as state: a second click before the re-render must not start a second run.
  const running = useRef(false);
  const hideBar = useRef<ReturnType<typeof setTimeout>>(undefined);
  /** The server's question when addresses in the send bounced or failed before; null when none is asked. */
  const [bouncedQuestion, setBouncedQuestion] = useState<string | null>(null);
  const answerBounced = useRef<(send: boolean) => void>(() => {});

  /** Asks the person the server's question and waits for the answer. */
  const askBounced = useCallback(
    (question: string) =>
      new Promise<boolean>((resolve) => {
        answerBounced.current = (answer) => {
          setBouncedQuestion(null);
          resolve(answer);
        };
        setBouncedQuestion(question);
      }),
    [],
  );

  useEffect(() => () => clearTimeout(hideBar.current), []);

  const send = useCallback(
    async (
      recordIds: readonly string[],
      {
        resend = false,
        confirmServedRecently,
      }: {
        resend?: boolean;
        /** Already confirmed (the pre-send confirmation showed the count): the server does not ask again. */
        confirmServedRecently?: boolean;
      } = {},
    ) => {
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
      setCaption(batched ? sendCaption(0, recordIds.length) : null);
      setRate(null);
      const startedAt = Date.now();
      let tally = emptyTally();
      /** The provider limits as the latest answer found them. */
      let rates: SendResult['rates'] = [];
      let lastProblem: unknown = null;
      let recordsDone = 0;
      /** The person's answers to the server's questions, asked once per send. */
      const answers: SendAnswers = { servedRecently: confirmServedRecently };
      for (const [index, chunk] of chunks.entries()) {
        try {
          const outcome = await sendChunkAsking(
            (confirm) =>
              sendMail({ data: chunk, type, ...(resend ? { resend: true } : {}), ...confirm }).unwrap(),
            answers,
            askBounced,
          );
          if (outcome === 'declined-bounced') tally = addDeclined(tally, chunk.length);
          else if (outcome === 'declined-served') tally = addServedDeclined(tally, chunk.length);
          else {
            tally = addAnswer(tally, outcome);
            rates = outcome.rates ?? rates;
          }
        } catch (problem) {
          // The spec: a failed batch request is only logged, and the remaining chunks still go.
          console.error(`Sending chunk ${index + 1} of ${chunks.length} failed.`, problem);
          tally = addUnsent(tally, chunk.length);
          lastProblem = problem;
        }
        if (batched) {
          setProgress(sendProgress(index + 1, chunks.length));
          recordsDone += chunk.length;
          setCaption(sendCaption(recordsDone, recordIds.length));
          setRate(sendRateText(tally, Date.now() - startedAt, rates));
        }
      }

      // Statuses changed on this page, and the dashboard's mail details with them.
      dispatch(api.util.invalidateTags(['Campaigns', 'DashboardInfo']));
      // 'Send Mail Successfully.' only when everything went out; otherwise the toast says what happened.
      // When no request got through, nothing was sent, and the server's reason is the message that helps.
      const outcome = sendSummary(tally);
      if (tally.answered > 0 && outcome === null) toast.success(SEND_SUCCESS);
      else if (tally.answered > 0 || (tally.declined ?? 0) + (tally.servedDeclined ?? 0) > 0)
        toast(outcome ?? SEND_SUCCESS);
      else toastApiProblem(lastProblem, 'The notices could not be sent.');
      setSummary(outcome);
      if (batched)
        hideBar.current = setTimeout(() => {
          setProgress(null);
          setCaption(null);
          setRate(null);
        }, BAR_HIDE_DELAY_MS);
      running.current = false;
      setSending(false);
    },
    [askBounced, dispatch, sendMail, type],
  );

  const dismissSummary = useCallback(() => setSummary(null), []);

  const answerBouncedQuestion = useCallback((sendAnyway: boolean) => answerBounced.current(sendAnyway), []);

  return {
    send,
    sending,
    progress,
    caption,
    rate,
    summary,
    dismissSummary,
    bouncedQuestion,
    answerBouncedQuestion,
  };
}

/** The person's answers to the server's questions during one send (undefined: not asked yet). */
type SendAnswers = { bounced?: boolean; servedRecently?: boolean };

/**
 * Sends one chunk (`post`, with the confirmations given so far), asking the server's questions (409
 * BOUNCED_BEFORE, SERVED_RECENTLY) at most once per send: the answers are kept in `answers`. Answers
 * the send's result, or which question the person said no to (then, or for an earlier chunk: this
 * chunk has such records too, and is not sent either); throws any other problem. Outside the hook, so
 * the React Compiler's lint need not analyse the loop.
 */
async function sendChunkAsking(
  post: (confirm: { confirmBounced?: true; confirmServedRecently?: true }) => Promise<SendResult>,
  answers: SendAnswers,
  ask: (question: string) => Promise<boolean>,
): Promise<SendResult | 'declined-bounced' | 'declined-served'> {
  for (;;) {
    try {
      return await post({
        ...(answers.bounced ? { confirmBounced: true } : {}),
        ...(answers.servedRecently ? { confirmServedRecently: true } : {}),
      });
    } catch (problem) {
      const asked = sendQuestion(problem);
      if (asked === null) throw problem;
      const key = asked.code === 'BOUNCED_BEFORE' ? 'bounced' : 'servedRecently';
      const before = answers[key];
      const yes = before ?? (await ask(asked.question));
      answers[key] = yes;
      if (!yes || before !== undefined) return key === 'bounced' ? 'declined-bounced' : 'declined-served';
    }
  }
}

/**
 * The server's question when a send names addresses that bounced or failed before (409
 * BOUNCED_BEFORE), or borrowers another campaign served recently (409 SERVED_RECENTLY).
 */
function sendQuestion(
  problem: unknown,
): { code: 'BOUNCED_BEFORE' | 'SERVED_RECENTLY'; question: string } | null {
  const data = (problem as { status?: unknown; data?: { code?: unknown; message?: unknown } } | null)?.data;
  if ((problem as { status?: unknown })?.status !== 409) return null;
  if (data?.code === 'BOUNCED_BEFORE')
    return {
      code: 'BOUNCED_BEFORE',
      question: String(data.message ?? 'Some addresses bounced or failed before. Send to them anyway?'),
    };
  if (data?.code === 'SERVED_RECENTLY')
    return {
      code: 'SERVED_RECENTLY',
      question: `${String(data.message ?? 'Some borrowers were served a notice recently')}. Send to them again?`,
    };
  return null;
}
