import { useId, useState } from 'react';
import type { CampaignType } from '@notice-desk/contract/campaigns';
import { languageByCode } from '@notice-desk/contract/languages';
import type { PreviewRecord } from '@notice-desk/contract/template-preview';
import { useCombobox } from '../../../hooks/use-combobox.ts';
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
  const statusId = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);

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
  const box = useCombobox({
    items: records,
    query,
    shown: open,
    text,
    setText,
    open,
    setOpen,
    onPick: onChange,
    enterNeverSubmits: true,
  });

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

  return (
    <div className={styles.picker}>
      <label htmlFor={inputId} className={styles.label}>
        Record to preview
      </label>
      <div className={styles.pickerBox}>
        <input
          {...box.inputProps}
          id={inputId}
          className={styles.pickerInput}
          placeholder={value ? describe(value) : 'Search by loan no. or name'}
          aria-describedby={statusId}
        />
        <div className={styles.pickerPopup} hidden={!open}>
          <ul {...box.listboxProps} aria-label="Records to preview" className={styles.pickerList}>
            {records.map((record, index) => (
              <li key={record._id} {...box.optionProps(record, index)} className={styles.pickerOption}>
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
          <p role="status" className={box.expanded ? 'visually-hidden' : styles.pickerMessage}>
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
