/**
 * Record dates are text (the spec: plain text inputs, no format checks), written day.month.year as
 * imports and the credit-card list have them ('12.05.2024'). A date picker reads and writes that text.
 */

const DAY_MONTH_YEAR = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$/;
const YEAR_MONTH_DAY = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;

const pad = (value: number, length = 2) => String(value).padStart(length, '0');

/** Whether the day exists in that month and year (no 31.02.2024). */
function isCalendarDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * The stored text as a date picker's value (YYYY-MM-DD): day first ('12.05.2024', '12/5/2024',
 * '12-05-2024') or already year first. '' when the text is no whole date, so the picker shows empty.
 */
export function dateTextToPicker(text: string): string {
  const trimmed = text.trim();
  const dayFirst = DAY_MONTH_YEAR.exec(trimmed);
  const yearFirst = dayFirst ? null : YEAR_MONTH_DAY.exec(trimmed);
  const [year, month, day] = dayFirst
    ? [Number(dayFirst[3]), Number(dayFirst[2]), Number(dayFirst[1])]
    : yearFirst
      ? [Number(yearFirst[1]), Number(yearFirst[2]), Number(yearFirst[3])]
      : [0, 0, 0];
  if (year < 1 || !isCalendarDate(year, month, day)) return '';
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** A date picker's value (YYYY-MM-DD) as the text records keep ('12.05.2024'); '' for a cleared picker. */
export function pickerToDateText(value: string): string {
  const match = YEAR_MONTH_DAY.exec(value);
  if (!match) return '';
  return `${pad(Number(match[3]))}.${pad(Number(match[2]))}.${match[1]}`;
}
