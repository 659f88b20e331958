import { useId, type ComponentProps } from 'react';
import { dateTextToPicker, pickerToDateText } from '../../utils/date-text.ts';
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
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <div className={styles.withPicker}>
        <input
          id={id}
          className={[styles.input, className].filter(Boolean).join(' ')}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
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
      {error && (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      )}
    </div>
  );
}
