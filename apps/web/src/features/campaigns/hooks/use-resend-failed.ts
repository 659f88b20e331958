import { useCallback, useState } from 'react';
import toast from 'react-hot-toast';
import { toastApiProblem } from '../../../lib/api-error.ts';
import { useLazyGetCampaignRecordIdsQuery } from '../api/campaigns-api.ts';

/** What 'Resend failed' resends: records whose latest attempt on a channel failed or bounced. */
export const FAILED_STATUSES = 'failed,bounced';

/**
 * 'Resend failed' over the whole campaign, not the page shown: asks the server for every failed or
 * bounced record, confirms with that count, then hands them to the batch send with `resend: true`
 * (chunks of 10 and the progress bar, as Send Notice). The server resends only the channels that failed.
 */
export function useResendFailed(
  campaignId: string,
  send: (recordIds: readonly string[], options: { resend: boolean }) => Promise<void>,
) {
  const [fetchIds, { isFetching: finding }] = useLazyGetCampaignRecordIdsQuery();
  /** The records the question is about; null when no question is open. */
  const [failedIds, setFailedIds] = useState<string[] | null>(null);

  const ask = useCallback(async () => {
    try {
      const { ids } = await fetchIds({ id: campaignId, status: FAILED_STATUSES }).unwrap();
      if (ids.length === 0) toast('No record of this campaign failed or bounced.');
      else setFailedIds(ids);
    } catch (problem) {
      toastApiProblem(problem, 'The failed records could not be found.');
    }
  }, [campaignId, fetchIds]);

  const confirm = useCallback(() => {
    const ids = failedIds ?? [];
    setFailedIds(null);
    void send(ids, { resend: true });
  }, [failedIds, send]);

  const cancel = useCallback(() => setFailedIds(null), []);

  return { ask, finding, failedIds, confirm, cancel };
}
