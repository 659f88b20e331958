import { pageCount } from '@notice-desk/contract/paging';
import styles from './data-table.module.css';

type PageSlot = number | 'gap-before' | 'gap-after';

/** The page buttons to show: all of them when few, else the first, the last and the current one's neighbours. */
export function pageWindow(page: number, count: number): PageSlot[] {
  if (count <= 7) return Array.from({ length: count }, (_, index) => index + 1);
  const start = Math.max(2, Math.min(page - 1, count - 4));
  const end = Math.min(count - 1, Math.max(page + 1, 5));
  const slots: PageSlot[] = [1];
  if (start > 2) slots.push('gap-before');
  for (let number = start; number <= end; number += 1) slots.push(number);
  if (end < count - 1) slots.push('gap-after');
  slots.push(count);
  return slots;
}

/** The spec's pager line: 'Showing X to Y of N entries' (X is 0 when there are none). */
export function pagerText(page: number, limit: number, total: number): string {
  const from = total === 0 ? 0 : Math.min((page - 1) * limit + 1, total);
  const to = Math.min(page * limit, total);
  return `Showing ${from} to ${to} of ${total} entries`;
}

type TablePagerProps = {
  page: number;
  limit: number;
  total: number;
  label: string;
  onPageChange: (page: number) => void;
};

export function TablePager({ page, limit, total, label, onPageChange }: TablePagerProps) {
  const count = pageCount(total, limit);
  return (
    <div className={styles.footer}>
      <p className={styles.pagerText} aria-live="polite">
        {pagerText(page, limit, total)}
      </p>
      <nav aria-label={`${label} pages`}>
        <ul className={styles.pages}>
          <li>
            <button
              type="button"
              className={styles.pageButton}
              disabled={page <= 1}
              onClick={() => onPageChange(page - 1)}
            >
              Previous
            </button>
          </li>
          {pageWindow(page, count).map((slot) =>
            typeof slot === 'number' ? (
              <li key={slot}>
                <button
                  type="button"
                  className={styles.pageButton}
                  aria-label={`Page ${slot}`}
                  aria-current={slot === page ? 'page' : undefined}
                  onClick={() => onPageChange(slot)}
                >
                  {slot}
                </button>
              </li>
            ) : (
              <li key={slot} className={styles.gap} aria-hidden="true">
                …
              </li>
            ),
          )}
          <li>
            <button
              type="button"
              className={styles.pageButton}
              disabled={page >= count}
              onClick={() => onPageChange(page + 1)}
            >
              Next
            </button>
          </li>
        </ul>
      </nav>
    </div>
  );
}
