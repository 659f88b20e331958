import { useSyncExternalStore } from 'react';
import { importKinds, type ImportKind } from '../utils/import-kinds.ts';

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
  /** Why it failed, in the server's words. */
  error: string | null;
};

export type ImportTrackerState = {
  /** 100% was reached: the bar stays, full, until the success toast 5 seconds later. */
  finishing: boolean;
  outcome: ImportOutcome | null;
};

const idle: ImportTrackerState = { finishing: false, outcome: null };
let states: Record<ImportKind, ImportTrackerState> = { 'credit-card': idle, notice: idle };
const listeners = new Set<() => void>();
const storageKeys: readonly string[] = Object.values(importKinds).flatMap((kind) => [
  kind.statusKey,
  kind.jobKey,
]);

function emit() {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab starting or finishing an import changes the flag here too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || storageKeys.includes(event.key)) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The flag lives in localStorage, so a reload during an import keeps polling. */
export function readImportStatus(kind: ImportKind): ImportStatusFlag {
  try {
    return window.localStorage.getItem(importKinds[kind].statusKey) === '1' ? 1 : 0;
  } catch {
    return 0;
  }
}

/** The import the flag is about (its job id), so a reload or another tab follows the same one. */
export function readTrackedJob(kind: ImportKind): string {
  try {
    return window.localStorage.getItem(importKinds[kind].jobKey) ?? '';
  } catch {
    return '';
  }
}

/** Sets the flag; with a job id, that import becomes the one followed. */
export function writeImportStatus(kind: ImportKind, flag: ImportStatusFlag, jobId?: string): void {
  try {
    if (jobId !== undefined) window.localStorage.setItem(importKinds[kind].jobKey, jobId);
    window.localStorage.setItem(importKinds[kind].statusKey, String(flag));
  } catch {
    // Storage refused (private mode, quota): the flag cannot outlive this page, nothing else changes.
  }
  emit();
}

export function useImportStatus(kind: ImportKind): ImportStatusFlag {
  return useSyncExternalStore(subscribe, () => readImportStatus(kind));
}

export function updateImportTracker(kind: ImportKind, update: Partial<ImportTrackerState>): void {
  states = { ...states, [kind]: { ...states[kind], ...update } };
  emit();
}

export function useTrackedJob(kind: ImportKind): string {
  return useSyncExternalStore(subscribe, () => readTrackedJob(kind));
}

export function useImportTracker(kind: ImportKind): ImportTrackerState {
  return useSyncExternalStore(subscribe, () => states[kind]);
}

/** Back to nothing tracked, for tests: the in-memory part outlives a test, localStorage does not. */
export function resetImportTracker(): void {
  states = { 'credit-card': idle, notice: idle };
  emit();
}
