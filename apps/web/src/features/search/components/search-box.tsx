import { useState } from 'react';
import { useNavigate } from 'react-router';
import { SEARCH_MIN_LENGTH, type SearchField, type SearchResult } from '@notice-desk/contract/search';
import { SearchIcon } from '../../../components/ui/icons.tsx';
import { paths } from '../../../config/paths.ts';
import { useCombobox } from '../../../hooks/use-combobox.ts';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { useSearchRecordsQuery } from '../api/search-api.ts';
import styles from './search-box.module.css';

/** How long typing must pause before a search goes out. */
export const SEARCH_DEBOUNCE_MS = 250;

const kindLabels: Record<SearchResult['kind'], string> = { notice: 'Notice', 'credit-card': 'Credit card' };
const fieldLabels: Record<SearchField, string> = {
  custName: 'Name',
  loanNo: 'Loan No.',
  maskNo: 'Mask No',
  custMobileNo: 'Mobile',
  referenceNo: 'Reference No',
};

const recordHref = (result: SearchResult) =>
  result.kind === 'notice'
    ? paths.notices.edit.getHref(result._id)
    : paths.creditCards.edit.getHref(result._id);

/**
 * The header's search box: the user's notices and credit cards by name, loan, mask, reference or
 * mobile number, searched on the server as they type. An ARIA combobox whose first result is
 * highlighted, so Enter opens it; the arrow keys move, Escape closes (then clears), a click opens.
 */
export function SearchBox() {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);

  const typed = text.trim();
  const query = useDebouncedValue(typed, SEARCH_DEBOUNCE_MS);
  const searchable = query.length >= SEARCH_MIN_LENGTH;
  const { currentData, isError } = useSearchRecordsQuery(query, { skip: !searchable });

  const shown = open && typed.length >= SEARCH_MIN_LENGTH;
  const results = shown && searchable ? (currentData?.results ?? []) : [];
  const box = useCombobox({
    items: results,
    query,
    shown,
    text,
    setText,
    open,
    setOpen,
    onPick: (result) => void navigate(recordHref(result)),
  });

  const message = !shown
    ? ''
    : isError
      ? 'Search failed. Try again.'
      : !currentData || !searchable
        ? 'Searching…'
        : results.length === 0
          ? 'No matching records'
          : `${results.length} ${results.length === 1 ? 'result' : 'results'}`;

  return (
    <div className={styles.search}>
      <SearchIcon className={styles.icon} />
      <input {...box.inputProps} className={styles.input} placeholder="Search..." aria-label="Search" />
      <div className={styles.popup} hidden={!shown}>
        <ul {...box.listboxProps} aria-label="Search results" className={styles.results}>
          {results.map((result, index) => (
            <li key={result._id} {...box.optionProps(result, index)} className={styles.option}>
              <span className={styles.name}>{result.custName || 'Unnamed customer'}</span>
              <span className={styles.detail}>
                {kindLabels[result.kind]}
                {result.matched.field !== 'custName' &&
                  ` · ${fieldLabels[result.matched.field]} ${result.matched.value}`}
              </span>
              {result.campaignName && <span className={styles.detail}>Campaign: {result.campaignName}</span>}
            </li>
          ))}
        </ul>
        <p role="status" className={box.expanded ? 'visually-hidden' : styles.message}>
          {message}
        </p>
      </div>
    </div>
  );
}
