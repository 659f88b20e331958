/**
 * The browser's own checks and formats on the notice page. The file limits repeat the contract's
 * (RESPONSE_FILE_MAX_BYTES, responseFileTypes) because importing its values would bring zod into this
 * small bundle; notice-page-rules.test.ts holds them equal.
 */
export const DISPUTE_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const disputeFileTypes = ['application/pdf', 'image/jpeg', 'image/png', 'image/webp'] as const;
/** For the file picker: the types above, and their extensions for pickers that go by name. */
export const disputeFileAccept = [...disputeFileTypes, '.pdf', '.jpg', '.jpeg', '.png', '.webp'].join(',');

export type DisputeFileProblem = 'fileTooLarge' | 'fileWrongType' | 'fileEmpty';

/** Why the server would refuse this file, or null when it takes it. */
export function disputeFileProblem(file: File): DisputeFileProblem | null {
  if (!(disputeFileTypes as readonly string[]).includes(file.type)) return 'fileWrongType';
  if (file.size > DISPUTE_FILE_MAX_BYTES) return 'fileTooLarge';
  if (file.size === 0) return 'fileEmpty';
  return null;
}

export const DISPUTE_TEXT_MAX_LENGTH = 5000;

/** DD-MM-YYYY HH:mm in the notice's zone, named ('IST' for Asia/Kolkata): not the visitor's clock. */
export function formatAt(iso: string, timeZone: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  const zone = timeZone === 'Asia/Kolkata' ? 'IST' : timeZone;
  return `${parts.day}-${parts.month}-${parts.year} ${parts.hour}:${parts.minute} ${zone}`;
}

/** When a lock opens, in words in `language`: 'in 58 minutes (at 11:42 am)'. */
export function lockOpensIn(lockedUntil: string, now: Date, language: string): string {
  const until = new Date(lockedUntil);
  const minutes = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
  const relative = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  const inWords =
    minutes > 90 ? relative.format(Math.round(minutes / 60), 'hour') : relative.format(minutes, 'minute');
  const clock = new Intl.DateTimeFormat(language, { hour: 'numeric', minute: '2-digit' }).format(until);
  return `${inWords} (${clock})`;
}
