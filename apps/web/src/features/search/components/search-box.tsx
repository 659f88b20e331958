import { useId, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { SEARCH_MIN_LENGTH, type SearchField, type SearchResult } from '@notice-desk/contract/search';
import { SearchIcon } from '../../../components/ui/icons.tsx';
import { paths } from '../../../config/paths.ts';
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
  const listboxId = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  // The highlighted result, remembered per query: a new query highlights its first result again.
  const [highlight, setHighlight] = useState({ query: '', index: 0 });

  const typed = text.trim();
  const query = useDebouncedValue(typed, SEARCH_DEBOUNCE_MS);
  const searchable = query.length >= SEARCH_MIN_LENGTH;
  const { currentData, isError } = useSearchRecordsQuery(query, { skip: !searchable });

  const shown = open && typed.length >= SEARCH_MIN_LENGTH;
  const results = shown && searchable ? (currentData?.results ?? []) : [];
  const expanded = results.length > 0;
  const active = highlight.query === query ? Math.min(highlight.index, results.length - 1) : 0;
  const optionId = (index: number) => `${listboxId}-option-${index}`;

  const message = !shown
    ? ''
    : isError
      ? 'Search failed. Try again.'
      : !currentData || !searchable
        ? 'Searching…'
        : results.length === 0
          ? 'No matching records'
          : `${results.length} ${results.length === 1 ? 'result' : 'results'}`;

  const choose = (result: SearchResult) => {
    setText('');
    setOpen(false);
    void navigate(recordHref(result));
  };

  const move = (step: number) => {
    const index = (active + step + results.length) % results.length;
    setHighlight({ query, index });
    document.getElementById(optionId(index))?.scrollIntoView?.({ block: 'nearest' });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp':
        event.preventDefault();
        if (!open) setOpen(true);
        else if (expanded) move(event.key === 'ArrowDown' ? 1 : -1);
        break;
      case 'Enter': {
        const result = expanded ? results[active] : undefined;
        if (result) {
          event.preventDefault();
          choose(result);
        }
        break;
      }
      case 'Escape':
        if (shown) {
          event.preventDefault();
          setOpen(false);
        } else if (text) {
          event.preventDefault();
          setText('');
        }
        break;
    }
  };

  return (
    <div className={styles.search}>
      <SearchIcon className={styles.icon} />
      <input
        type="search"
        role="combobox"
        className={styles.input}
        placeholder="Search..."
        aria-label="Search"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listboxId}
        aria-activedescendant={expanded ? optionId(active) : undefined}
        autoComplete="off"
        spellCheck={false}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      <div className={styles.popup} hidden={!shown}>
        <ul id={listboxId} role="listbox" aria-label="Search results" className={styles.results}>
          {results.map((result, index) => (
            <li
              key={result._id}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              className={styles.option}
              // Keeps focus in the box, so the click lands before the list closes on blur.
              onMouseDown={(event) => event.preventDefault()}
              onMouseMove={() => index !== active && setHighlight({ query, index })}
              onClick={() => choose(result)}
            >
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
        <p role="status" className={expanded ? 'visually-hidden' : styles.message}>
          {message}
        </p>
      </div>
    </div>
  );
}
