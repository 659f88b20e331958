import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import type { JobKind, JobState } from '@notice-desk/contract/jobs';

dayjs.extend(utc);
dayjs.extend(timezone);

export const jobKindLabels: Record<JobKind, string> = { import: 'Import', send: 'Send' };

export const jobStateLabels: Record<JobState, string> = {
  queued: 'Queued',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
};

/** A job's age to the unit that matters: '45 s', '12 min', '3 h 5 min', '2 d 4 h'. */
export function jobAge(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/** To the second, in the server's TIME_ZONE (every ADMIN reads the same time); the browser's until it is known. */
export const jobTime = (at: string, timeZone?: string) =>
  (timeZone ? dayjs(at).tz(timeZone) : dayjs(at)).format('D MMM YYYY, HH:mm:ss');
