/**
 * Quiet hours: the daily window in which notices may go out, in one time zone (for example 08:00 to
 * 19:00 Asia/Kolkata, the hours India's fair-practice rules allow for recovery communication).
 */
export interface SendWindow {
  /** Minutes after local midnight the window opens and closes (close is exclusive). */
  opens: number;
  closes: number;
  timeZone: string;
  /** '08:00–19:00 (Asia/Kolkata)', for messages. */
  label: string;
}

const hhmm = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Parses '08:00-19:00'; answers why not when it cannot. */
export function parseSendWindow(hours: string, timeZone: string): SendWindow | string {
  const [from, to, ...rest] = hours.split('-').map((part) => part.trim());
  const open = hhmm.exec(from ?? '');
  const close = hhmm.exec(to ?? '');
  if (!open || !close || rest.length > 0) return 'must look like 08:00-19:00 (24-hour times, opening first)';
  const opens = Number(open[1]) * 60 + Number(open[2]);
  const closes = Number(close[1]) * 60 + Number(close[2]);
  if (closes <= opens) return 'must close after it opens on the same day, as in 08:00-19:00';
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone });
  } catch {
    return `names an unknown time zone '${timeZone}'; use an IANA name such as Asia/Kolkata`;
  }
  return { opens, closes, timeZone, label: `${from}–${to} (${timeZone})` };
}

/** Minutes after local midnight in the window's time zone, and the local date, at an instant. */
function localClock(window: SendWindow, at: Date): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: window.timeZone,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return part('hour') * 60 + part('minute') + part('second') / 60;
}

export function isOpen(window: SendWindow, at: Date): boolean {
  const minutes = localClock(window, at);
  return minutes >= window.opens && minutes < window.closes;
}

/** The next instant the window opens, from a time it is closed (rounded to the minute). */
export function nextOpening(window: SendWindow, at: Date): Date {
  const minutes = localClock(window, at);
  const wait = minutes < window.opens ? window.opens - minutes : 24 * 60 - minutes + window.opens;
  const guess = new Date(Math.round((at.getTime() + wait * 60_000) / 60_000) * 60_000);
  // A daylight-saving change in between moves local time by the shift: correct once.
  const drift = localClock(window, guess) - window.opens;
  return Math.abs(drift) < 1 ? guess : new Date(guess.getTime() - Math.round(drift) * 60_000);
}

/** 'Notices may be sent only between …. Sending opens again at 08:00 on Mon, 23 Nov (in 9 h 12 min).' */
export function closedMessage(window: SendWindow, at: Date): string {
  const opening = nextOpening(window, at);
  const when = new Intl.DateTimeFormat('en-GB', {
    timeZone: window.timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(opening);
  const part = (type: string) => when.find((p) => p.type === type)?.value ?? '';
  const minutes = Math.max(1, Math.round((opening.getTime() - at.getTime()) / 60_000));
  const wait = minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
  return (
    `Notices may be sent only between ${window.label}. ` +
    `Sending opens again at ${part('hour')}:${part('minute')} on ${part('weekday')}, ${part('day')} ${part('month')} (in ${wait}).`
  );
}
