import { useEffect } from 'react';
import toast from 'react-hot-toast';
import type { ImportProgress } from '@notice-desk/contract/imports';
import { api } from '../../../lib/api.ts';
import { useAppDispatch, type AppDispatch } from '../../../lib/store.ts';
import { useGetImportProgressQuery } from '../api/imports-api.ts';
import {
  readImportStatus,
  updateImportTracker,
  useImportStatus,
  useImportTracker,
  useTrackedJob,
  writeImportStatus,
} from '../stores/import-tracker.ts';
import { importKinds, type ImportKind } from '../utils/import-kinds.ts';
import { importStep, progressValue } from '../utils/import-step.ts';

/** The spec's poll interval while the import-status flag is 1. */
export const PROGRESS_POLL_MS = 10_000;
/** The spec's pause between 100% and the success toast (the bar hides with it). */
export const SUCCESS_DELAY_MS = 5_000;

// Module-level, not per component: leaving the list page must not lose a due success toast.
const successTimers = new Map<ImportKind, ReturnType<typeof setTimeout>>();

/** An import was started: it becomes the one followed, anything shown about the last one goes, the flag turns 1. */
export function trackImport(kind: ImportKind, jobId: string): void {
  updateImportTracker(kind, { outcome: null });
  writeImportStatus(kind, 1, jobId);
}

/**
 * Acts on a progress answer about the followed import (`jobId`) while the flag is 1. At 100%:
 * flag to 0, the lists refreshed, and 5 seconds later the success toast with the bar hidden. On
 * failure: flag to 0, the reason kept on the page until dismissed (once: not a toast as well, which
 * said the same thing twice and vanished). With no import at all, or
 * when the latest import is not the followed one: flag to 0, nothing shown.
 */
export function settleImport(
  kind: ImportKind,
  jobId: string,
  progress: ImportProgress,
  dispatch: AppDispatch,
): void {
  // Read afresh: an answer is acted on once, even when effects run twice.
  if (readImportStatus(kind) !== 1) return;
  // The flag outlived its import: another account signed in here since, say. Not this user's news.
  const someoneElses = jobId !== '' && progress.jobId !== undefined && progress.jobId !== jobId;
  const step = someoneElses ? 'none' : importStep(progress);
  if (step === 'running') return;
  writeImportStatus(kind, 0);
  if (step === 'none') return;

  const outcome = {
    jobId: progress.jobId ?? null,
    imported: progress.imported ?? 0,
    skipped: progress.skipped ?? 0,
    noted: progress.noted ?? 0,
  };
  if (step === 'failed') {
    const reason = progress.error || 'The import failed.';
    updateImportTracker(kind, { finishing: false, outcome: { ...outcome, result: 'failed', error: reason } });
    return;
  }

  dispatch(api.util.invalidateTags([importKinds[kind].listTag, 'Campaigns', 'DashboardInfo']));
  updateImportTracker(kind, {
    finishing: true,
    outcome: outcome.skipped > 0 || outcome.noted > 0 ? { ...outcome, result: 'done', error: null } : null,
  });
  clearTimeout(successTimers.get(kind));
  successTimers.set(
    kind,
    setTimeout(() => {
      successTimers.delete(kind);
      toast.success(importKinds[kind].successMessage);
      updateImportTracker(kind, { finishing: false });
    }, SUCCESS_DELAY_MS),
  );
}

/** Polls the kind's latest import while its flag is 1 and says what the page should show. */
export function useImportProgress(kind: ImportKind) {
  const dispatch = useAppDispatch();
  const flag = useImportStatus(kind);
  const jobId = useTrackedJob(kind);
  const { finishing, outcome } = useImportTracker(kind);
  // currentData, not data: data would carry the previous import's last answer into this one.
  const { currentData: progress, error } = useGetImportProgressQuery(
    { kind, jobId },
    {
      skip: flag !== 1,
      pollingInterval: PROGRESS_POLL_MS,
      // The first request goes out at once, also after a reload or a return to the page.
      refetchOnMountOrArgChange: true,
    },
  );

  useEffect(() => {
    if (flag === 1 && progress) settleImport(kind, jobId, progress, dispatch);
  }, [kind, flag, jobId, progress, dispatch]);

  useEffect(() => {
    // The spec: polling failures are only logged; the next poll tries again.
    if (error) console.error(`Reading the ${kind} import progress failed.`, error);
  }, [kind, error]);

  const running = flag === 1;
  return {
    /** The progress bar is shown while the flag is 1 and until the success toast. */
    showBar: running || finishing,
    percentage: running ? progressValue(progress) : 100,
    finishing: !running && finishing,
    outcome,
    dismissOutcome: () => updateImportTracker(kind, { outcome: null }),
  };
}
