import type { ImportProgress } from '@notice-desk/contract/imports';

/**
 * Where the latest import stands, read from the progress answer:
 * - running: queued or under way (0 to 99%), keep polling;
 * - done: finished (100%);
 * - failed: refused or broken, `error` says why;
 * - none: the user has no import of this kind at all.
 */
export type ImportStep = 'running' | 'done' | 'failed' | 'none';

export function importStep(progress: ImportProgress): ImportStep {
  if (progress.status === 'failed') return 'failed';
  if (progress.status === 'done' || progress.progressPercentage === 100) return 'done';
  if (progress.status === undefined && progress.progressPercentage === null) return 'none';
  return 'running';
}

/** The bar's value: a whole percentage from 0 to 100 (0 while queued or unknown). */
export function progressValue(progress: ImportProgress | undefined): number {
  const value = progress?.progressPercentage ?? 0;
  return Math.min(100, Math.max(0, Math.round(value)));
}
