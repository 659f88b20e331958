import type { ComponentProps } from 'react';
import { dateTextToPicker, pickerToDateText } from '../../utils/date-text.ts';
import { LabelledField } from './labelled-field.tsx';
import styles from './text-field.module.css';

type DateTextFieldProps = Omit<ComponentProps<'input'>, 'id' | 'value' | 'onChange' | 'type'> & {
  name: string;
  label: string;
  /** The stored text, e.g. '12.05.2024'. */
  value: string;
  onValueChange: (text: string) => void;
  error?: string | undefined;
};

/**
 * A date kept as text (the spec's plain input, which takes anything typed) with a date picker beside
 * it: picking writes the day.month.year text, and the picker shows the typed text when it is a date.
 */
export function DateTextField({
  label,
  error,
  value,
  onValueChange,
  className,
  ...input
}: DateTextFieldProps) {
  return (
    <LabelledField label={label} error={error}>
      {(control) => (
        <div className={styles.withPicker}>
          <input
            {...control}
            className={[styles.input, className].filter(Boolean).join(' ')}
            value={value}
            onChange={(event) => onValueChange(event.target.value)}
            {...input}
          />
          {/* For the pointer: from the keyboard the date is typed in the text, so Tab goes field to field. */}
          <input
            type="date"
            tabIndex={-1}
            className={`${styles.input} ${styles.picker}`}
            aria-label={`${label}: pick a date`}
            value={dateTextToPicker(value)}
            onChange={(event) => onValueChange(pickerToDateText(event.target.value))}
          />
        </div>
      )}
    </LabelledField>
  );
}
