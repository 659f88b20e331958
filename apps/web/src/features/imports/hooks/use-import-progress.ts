import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../../lib/store.ts';
import { useGetImportProgressQuery } from '../api/imports-api.ts';
import {
  importStorageKeys,
  outcomeDismissed,
  selectKindTracker,
  storageChanged,
} from '../stores/import-tracker.ts';
import type { ImportKind } from '../utils/import-kinds.ts';
import { progressValue } from '../utils/import-step.ts';

/** The spec's poll interval while the import-status flag is 1. */
export const PROGRESS_POLL_MS = 10_000;
/** The poll interval while the import is young (YOUNG_IMPORT_MS): the bar moves from the first second. */
export const YOUNG_POLL_MS = 1_000;

/**
 * Polls the kind's latest import while its flag is 1 and says what the page should show. What an
 * answer means (done, failed, someone else's) is the import tracker's listener's to decide.
 */
export function useImportProgress(kind: ImportKind) {
  const dispatch = useAppDispatch();
  const { status, jobId, young, finishing, outcome } = useAppSelector((state) =>
    selectKindTracker(state, kind),
  );
  // currentData, not data: data would carry the previous import's last answer into this one.
  const { currentData: progress, error } = useGetImportProgressQuery(
    { kind, jobId },
    {
      skip: status !== 1,
      pollingInterval: young ? YOUNG_POLL_MS : PROGRESS_POLL_MS,
      // The first request goes out at once, also after a reload or a return to the page.
      refetchOnMountOrArgChange: true,
    },
  );

  useEffect(() => {
    // The spec: polling failures are only logged; the next poll tries again.
    if (error) console.error(`Reading the ${kind} import progress failed.`, error);
  }, [kind, error]);

  useEffect(() => {
    // Another tab starting or finishing an import changes the flag here too.
    const onStorage = (event: StorageEvent) => {
      if (event.key === null || importStorageKeys.includes(event.key)) dispatch(storageChanged());
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [dispatch]);

  const running = status === 1;
  return {
    /** The progress bar is shown while the flag is 1 and until the success toast. */
    showBar: running || finishing,
    percentage: running ? progressValue(progress) : 100,
    finishing: !running && finishing,
    outcome,
    dismissOutcome: () => dispatch(outcomeDismissed({ kind })),
  };
}
