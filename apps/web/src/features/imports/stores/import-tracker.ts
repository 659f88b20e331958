import { createSlice, isAnyOf, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import toast from 'react-hot-toast';
import { api } from '../../../lib/api.ts';
import { rootReducer, startAppListening } from '../../../lib/store.ts';
import { importsApi } from '../api/imports-api.ts';
import { importKinds, type ImportKind } from '../utils/import-kinds.ts';
import { importStep } from '../utils/import-step.ts';

/** The spec's pause between 100% and the success toast (the bar hides with it). */
export const SUCCESS_DELAY_MS = 5_000;

/**
 * How long an import this page started counts as young, and is polled every second instead of the
 * spec's 10 s: a few thousand rows are read in seconds, and the bar stood at 0% until the second poll.
 */
export const YOUNG_IMPORT_MS = 15_000;

/** The spec's per-kind import-status flag: 1 while an import runs (progress is polled), else 0. */
export type ImportStatusFlag = 0 | 1;

/** How an import ended, kept on screen until dismissed: a failure, or a success that skipped rows. */
export type ImportOutcome = {
  result: 'done' | 'failed';
  jobId: string | null;
  imported: number;
  skipped: number;
  /** Rows imported with a note in the report (a language no template knows). */
  noted: number;
  /** Rows already imported (skipped unless the import was told otherwise), and existing records updated. */
  duplicates?: number;
  updated?: number;
  /** Why it failed, in the server's words. */
  error: string | null;
};

export type KindTracker = {
  /** The spec's flag, kept in localStorage so a reload during an import keeps polling. */
  status: ImportStatusFlag;
  /** The import the flag is about, so a reload or another tab follows the same one ('' for none). */
  jobId: string;
  /** Started by this page less than YOUNG_IMPORT_MS ago: its progress is polled sooner. */
  young: boolean;
  /** 100% was reached: the bar stays, full, until the success toast 5 seconds later. */
  finishing: boolean;
  outcome: ImportOutcome | null;
};

type KindPayload = { kind: ImportKind };

function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeStorage(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Storage refused (private mode, quota): the flag cannot outlive this page, nothing else changes.
  }
}

/** The flag and followed job as localStorage has them (this tab's last write, or another tab's). */
const storedFlag = (kind: ImportKind): Pick<KindTracker, 'status' | 'jobId'> => ({
  status: readStorage(importKinds[kind].statusKey) === '1' ? 1 : 0,
  jobId: readStorage(importKinds[kind].jobKey) ?? '',
});

const storedTracker = (kind: ImportKind): KindTracker => ({
  ...storedFlag(kind),
  young: false,
  finishing: false,
  outcome: null,
});

const importTrackerSlice = createSlice({
  name: 'importTracker',
  // Read when a store starts, so a reload during an import goes on following it.
  initialState: (): Record<ImportKind, KindTracker> => ({
    'credit-card': storedTracker('credit-card'),
    notice: storedTracker('notice'),
  }),
  reducers: {
    /** An import was started: it becomes the one followed, anything shown about the last one goes. */
    importStarted: (state, { payload }: PayloadAction<KindPayload & { jobId: string }>) => {
      Object.assign(state[payload.kind], { status: 1, jobId: payload.jobId, young: true, outcome: null });
    },
    importGrewOld: (state, { payload }: PayloadAction<KindPayload & { jobId: string }>) => {
      if (state[payload.kind].jobId === payload.jobId) state[payload.kind].young = false;
    },
    /** The flag outlived its import (none at all, or not this user's): dropped without a word. */
    importForgotten: (state, { payload }: PayloadAction<KindPayload>) => {
      state[payload.kind].status = 0;
    },
    importFailed: (state, { payload }: PayloadAction<KindPayload & { outcome: ImportOutcome }>) => {
      Object.assign(state[payload.kind], { status: 0, finishing: false, outcome: payload.outcome });
    },
    /** 100%: the bar stays full until the toast; skipped or noted rows are said on the page. */
    importDone: (state, { payload }: PayloadAction<KindPayload & { outcome: ImportOutcome | null }>) => {
      Object.assign(state[payload.kind], { status: 0, finishing: true, outcome: payload.outcome });
    },
    successToastShown: (state, { payload }: PayloadAction<KindPayload>) => {
      state[payload.kind].finishing = false;
    },
    outcomeDismissed: (state, { payload }: PayloadAction<KindPayload>) => {
      state[payload.kind].outcome = null;
    },
    /** Another tab started or finished an import: its flag applies here too. */
    storageChanged: (state) => {
      for (const kind of Object.keys(importKinds) as ImportKind[]) {
        const stored = storedFlag(kind);
        // Another tab's import: how young it is is not known here.
        if (stored.jobId !== state[kind].jobId) state[kind].young = false;
        Object.assign(state[kind], stored);
      }
    },
  },
  selectors: {
    selectKindTracker: (state, kind: ImportKind) => state[kind],
  },
});

export const {
  importStarted,
  importGrewOld,
  importForgotten,
  importFailed,
  importDone,
  successToastShown,
  outcomeDismissed,
  storageChanged,
} = importTrackerSlice.actions;

declare module '../../../lib/store.ts' {
  // Declaration merging: the root state has this slice once this module has loaded.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface LazyLoadedSlices extends WithSlice<typeof importTrackerSlice> {}
}

const importTracker = importTrackerSlice.injectInto(rootReducer);
export const { selectKindTracker } = importTracker.selectors;

/** The localStorage keys of both kinds' flags and followed jobs, for other tabs' storage events. */
export const importStorageKeys: readonly string[] = Object.values(importKinds).flatMap((kind) => [
  kind.statusKey,
  kind.jobKey,
]);

// The flag and the followed job go to localStorage as they change (the spec's flag is '1' or '0').
startAppListening({
  actionCreator: importStarted,
  effect: ({ payload: { kind, jobId } }) => {
    writeStorage(importKinds[kind].jobKey, jobId);
    writeStorage(importKinds[kind].statusKey, '1');
  },
});
startAppListening({
  actionCreator: importStarted,
  effect: async ({ payload: { kind, jobId } }, listenerApi) => {
    await listenerApi.delay(YOUNG_IMPORT_MS);
    listenerApi.dispatch(importGrewOld({ kind, jobId }));
  },
});
const flagDropped = isAnyOf(importForgotten, importFailed, importDone);
startAppListening({
  predicate: (action): action is PayloadAction<KindPayload> => flagDropped(action),
  effect: ({ payload: { kind } }) => writeStorage(importKinds[kind].statusKey, '0'),
});

/**
 * Acts on a progress answer about the followed import while its flag is 1. At 100%: flag to 0, the
 * lists refreshed, and 5 seconds later the success toast with the bar hidden. On failure: flag to 0,
 * the reason kept on the page until dismissed (once: not a toast as well, which said the same thing
 * twice and vanished). With no import at all, or when the latest import is not the followed one:
 * flag to 0, nothing shown.
 */
startAppListening({
  matcher: importsApi.endpoints.getImportProgress.matchFulfilled,
  effect: async (action, listenerApi) => {
    const { kind, jobId } = action.meta.arg.originalArgs;
    const tracker = selectKindTracker(listenerApi.getState(), kind);
    // An answer already acted on, or about an import no longer followed, changes nothing.
    if (tracker.status !== 1 || tracker.jobId !== jobId) return;
    const progress = action.payload;
    // The flag outlived its import: another account signed in here since, say. Not this user's news.
    const someoneElses = jobId !== '' && progress.jobId !== undefined && progress.jobId !== jobId;
    const step = someoneElses ? 'none' : importStep(progress);
    if (step === 'running') return;
    if (step === 'none') {
      listenerApi.dispatch(importForgotten({ kind }));
      return;
    }

    const counts = {
      jobId: progress.jobId ?? null,
      imported: progress.imported ?? 0,
      skipped: progress.skipped ?? 0,
      noted: progress.noted ?? 0,
      duplicates: progress.duplicates ?? 0,
      updated: progress.updated ?? 0,
    };
    if (step === 'failed') {
      const error = progress.error || 'The import failed.';
      listenerApi.dispatch(importFailed({ kind, outcome: { ...counts, result: 'failed', error } }));
      return;
    }

    listenerApi.dispatch(api.util.invalidateTags([importKinds[kind].listTag, 'Campaigns', 'DashboardInfo']));
    const worthSaying = counts.skipped > 0 || counts.noted > 0 || counts.updated > 0;
    listenerApi.dispatch(
      importDone({ kind, outcome: worthSaying ? { ...counts, result: 'done', error: null } : null }),
    );
    // A store's listener, not a component's timer: leaving the list page does not lose the toast.
    // A later 100% of the same kind within the 5 seconds waits its own, and says it once.
    const later = await listenerApi.take(
      (next) => importDone.match(next) && next.payload.kind === kind,
      SUCCESS_DELAY_MS,
    );
    if (later) return;
    toast.success(importKinds[kind].successMessage);
    listenerApi.dispatch(successToastShown({ kind }));
  },
});
