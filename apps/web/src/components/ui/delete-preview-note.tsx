import { describeDeletePreview, type DeletePreview } from '@notice-desk/contract/archive';

export type DeletePreviewQuery = { data?: DeletePreview | undefined; isFetching: boolean; isError: boolean };

export const COUNTING_RECORDS = 'Counting the records that will be archived and erased…';
export const PREVIEW_UNAVAILABLE =
  'Records already sent are archived (kept as evidence); records never sent are erased.';

/**
 * Under a delete's question: how many records it will archive (already served, kept as evidence) and
 * how many it will erase (never sent), asked afresh each time the question opens.
 */
export function DeletePreviewNote({ data, isFetching, isError }: DeletePreviewQuery) {
  if (isFetching && !data) return <p aria-live="polite">{COUNTING_RECORDS}</p>;
  if (isError || !data) return <p>{PREVIEW_UNAVAILABLE}</p>;
  return <p aria-live="polite">{describeDeletePreview(data)}</p>;
}
