export const nowIso = (): string => new Date().toISOString();
export const isoIn = (ms: number): string => new Date(Date.now() + ms).toISOString();

const wallClocks = new Map<string, Intl.DateTimeFormat>();

/**
 * The wall-clock time an instant shows in a time zone, as the milliseconds of the UTC instant with the
 * same fields: 2024-05-20T08:35:00Z in Asia/Kolkata gives Date.UTC(2024, 4, 20, 14, 5).
 */
export function wallClockMs(instant: number, timeZone: string): number {
  let format = wallClocks.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      calendar: 'gregory',
      numberingSystem: 'latn',
    });
    wallClocks.set(timeZone, format);
  }
  const parts = format.formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const ms = ((instant % 1000) + 1000) % 1000;
  // setUTCFullYear, not Date.UTC, which reads the years 0–99 as 1900–1999.
  const wallClock = new Date(0);
  wallClock.setUTCFullYear(part('year'), part('month') - 1, part('day'));
  wallClock.setUTCHours(part('hour'), part('minute'), part('second'), ms);
  return wallClock.getTime();
}

/**
 * The instant (ISO) a calendar day, YYYY-MM-DD, plus `days` begins in a time zone: 2024-05-20 in
 * Asia/Kolkata begins at 2024-05-19T18:30:00.000Z. Undefined past the year 9999, which ISO text cannot
 * compare.
 */
export function startOfDayIn(day: string, timeZone: string, days = 0): string | undefined {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const calendar = new Date(0);
  calendar.setUTCFullYear(year, month - 1, date + days);
  const midnight = calendar.getTime();
  if (!Number.isFinite(midnight) || calendar.getUTCFullYear() > 9999) return undefined;
  // Twice: the zone's offset at the first guess may differ from the offset at midnight (a DST change).
  let instant = midnight - (wallClockMs(midnight, timeZone) - midnight);
  instant = midnight - (wallClockMs(instant, timeZone) - instant);
  const start = new Date(instant);
  return start.getUTCFullYear() >= 0 && start.getUTCFullYear() <= 9999 ? start.toISOString() : undefined;
}

const zoneNames = new Map<string, Intl.DateTimeFormat>();

/**
 * An instant as people are shown it in `timeZone` (TIME_ZONE): day '12-05-2024', time '10:41:07' and
 * the zone's short name 'IST'. Undefined for text that is no instant.
 */
export function shownParts(
  iso: string,
  timeZone: string,
): { day: string; time: string; zone: string } | undefined {
  const instant = Date.parse(iso);
  if (!Number.isFinite(instant)) return undefined;
  const wall = new Date(wallClockMs(instant, timeZone)).toISOString();
  let names = zoneNames.get(timeZone);
  if (!names) {
    names = new Intl.DateTimeFormat('en-IN', { timeZone, timeZoneName: 'short' });
    zoneNames.set(timeZone, names);
  }
  const zone = names.formatToParts(instant).find((part) => part.type === 'timeZoneName')?.value ?? timeZone;
  return {
    day: `${wall.slice(8, 10)}-${wall.slice(5, 7)}-${wall.slice(0, 4)}`,
    time: wall.slice(11, 19),
    zone,
  };
}

/** '12-05-2024 10:41:07 IST': an instant as people are shown it, in `timeZone` (TIME_ZONE). */
export function shownAt(iso: string, timeZone: string): string {
  const shown = shownParts(iso, timeZone);
  return shown ? `${shown.day} ${shown.time} ${shown.zone}` : iso;
}
