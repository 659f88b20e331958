import { useId, useState, type KeyboardEvent } from 'react';
import type { CampaignType } from '@notice-desk/contract/campaigns';
import { languageByCode } from '@notice-desk/contract/languages';
import type { PreviewRecord } from '@notice-desk/contract/template-preview';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { useGetPreviewRecordsQuery } from '../api/templates-api.ts';
import styles from './template-editor.module.css';

/** How long typing must pause before the records are searched. */
const PICKER_DEBOUNCE_MS = 250;
/** Fewest characters the search runs on (as the header's search). */
const PICKER_MIN_LENGTH = 2;

type PreviewRecordPickerProps = {
  kind: CampaignType;
  /** The language of the template being edited (a variant's code), null for a default template. */
  language: string | null;
  /** The record picked; null prints with the default one (the newest in the template's language). */
  value: PreviewRecord | null;
  onChange: (record: PreviewRecord | null) => void;
};

const describe = (record: PreviewRecord) =>
  [record.reference, record.custName].filter(Boolean).join(' · ') || 'A record with no name';

/**
 * Which of the ADMIN's records the preview prints with: an ARIA combobox listing the newest records in
 * the template's language first, searched on the server by name or loan, mask or reference number as
 * they type. The arrow keys move, Enter picks, Escape closes; 'Use the default' goes back to the newest
 * in the language.
 */
export function PreviewRecordPicker({ kind, language, value, onChange }: PreviewRecordPickerProps) {
  const inputId = useId();
  const listboxId = useId();
  const statusId = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);

  const typed = text.trim();
  const query = useDebouncedValue(typed, PICKER_DEBOUNCE_MS);
  const searching = query.length >= PICKER_MIN_LENGTH;
  const { currentData, isError, isFetching } = useGetPreviewRecordsQuery({
    kind,
    language,
    q: searching ? query : '',
  });
  // The defaults (no search) tell which record prints when none is picked.
  const { currentData: defaults } = useGetPreviewRecordsQuery({ kind, language, q: '' });

  const languageName = language ? (languageByCode(language)?.name ?? language) : undefined;
  const tooShort = typed.length > 0 && typed.length < PICKER_MIN_LENGTH;
  const settled = typed === query && !isFetching;
  const records = open && !tooShort && settled ? (currentData?.records ?? []) : [];
  const expanded = open && records.length > 0;
  const highlighted = Math.min(active, records.length - 1);
  const optionId = (index: number) => `${listboxId}-option-${index}`;

  const defaultRecord = defaults?.records.find((record) => record._id === defaults.defaultId);
  const nounPlural = kind === 'notice' ? 'notices' : 'credit cards';
  const defaultNote = !defaults
    ? ''
    : !defaultRecord
      ? `You have no ${nounPlural}: the preview prints sample values.`
      : defaultRecord.inLanguage
        ? `Default: your newest ${languageName ? `${languageName} record` : 'record in the default language'}, ${describe(defaultRecord)}.`
        : `None of your ${nounPlural} is in ${languageName ?? 'the default language'}: the preview prints your newest, ${describe(defaultRecord)}.`;

  const message = !open
    ? ''
    : isError
      ? 'The records could not be read. Try again.'
      : tooShort
        ? `Type at least ${PICKER_MIN_LENGTH} characters to search.`
        : !settled
          ? 'Searching…'
          : records.length === 0
            ? typed
              ? 'No matching records'
              : `You have no ${nounPlural}.`
            : `${records.length} ${records.length === 1 ? 'record' : 'records'}`;

  const pick = (record: PreviewRecord) => {
    onChange(record);
    setText('');
    setOpen(false);
  };

  const move = (step: number) => {
    const index = (highlighted + step + records.length) % records.length;
    setActive(index);
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
        // Enter never submits the template's form from here.
        event.preventDefault();
        const record = expanded ? records[highlighted] : undefined;
        if (record) pick(record);
        break;
      }
      case 'Escape':
        if (open) {
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
    <div className={styles.picker}>
      <label htmlFor={inputId} className={styles.label}>
        Record to preview
      </label>
      <div className={styles.pickerBox}>
        <input
          id={inputId}
          type="search"
          role="combobox"
          className={styles.pickerInput}
          placeholder={value ? describe(value) : 'Search by loan no. or name'}
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listboxId}
          aria-activedescendant={expanded ? optionId(highlighted) : undefined}
          aria-describedby={statusId}
          autoComplete="off"
          spellCheck={false}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setActive(0);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
        />
        <div className={styles.pickerPopup} hidden={!open}>
          <ul id={listboxId} role="listbox" aria-label="Records to preview" className={styles.pickerList}>
            {records.map((record, index) => (
              <li
                key={record._id}
                id={optionId(index)}
                role="option"
                aria-selected={index === highlighted}
                className={styles.pickerOption}
                // Keeps focus in the box, so the click lands before the list closes on blur.
                onMouseDown={(event) => event.preventDefault()}
                onMouseMove={() => index !== highlighted && setActive(index)}
                onClick={() => pick(record)}
              >
                <span className={styles.pickerName}>{describe(record)}</span>
                <span className={styles.pickerDetail}>
                  {record.inLanguage
                    ? (languageName ?? 'Default language')
                    : record.language
                      ? `In ${languageByCode(record.language)?.name ?? record.language}`
                      : 'No language'}
                </span>
              </li>
            ))}
          </ul>
          <p role="status" className={expanded ? 'visually-hidden' : styles.pickerMessage}>
            {message}
          </p>
        </div>
      </div>
      <p id={statusId} className={styles.hint} aria-live="polite">
        {value ? `Prints with ${describe(value)}.` : defaultNote}
      </p>
      {value && (
        <button
          type="button"
          className={`button button-secondary ${styles.pickerReset}`}
          onClick={() => onChange(null)}
        >
          Use the default
        </button>
      )}
    </div>
  );
}
