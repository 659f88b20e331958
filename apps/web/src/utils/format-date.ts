import dayjs from 'dayjs';
import advancedFormat from 'dayjs/plugin/advancedFormat.js';

// 'Do' (1st, 2nd, 3rd…) comes from this plugin.
dayjs.extend(advancedFormat);

/** The spec's display format for dates in lists ('MMM Do YY', e.g. 'Mar 1st 25'); '' when there is no date. */
export function formatListDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = dayjs(value);
  return date.isValid() ? date.format('MMM Do YY') : value;
}

/**
 * The credit-card list shows the typed-in camp date with its first '.' made a '-'
 * (the spec's rule, kept as written: '12.05.2024' shows as '12-05.2024').
 */
export function formatCreditCardListDate(campDate: string): string {
  return campDate.replace('.', '-');
}
