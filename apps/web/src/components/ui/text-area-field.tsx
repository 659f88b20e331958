import { useId, type ComponentProps } from 'react';
import fieldStyles from './text-field.module.css';
import styles from './text-area-field.module.css';

type TextAreaFieldProps = Omit<ComponentProps<'textarea'>, 'id'> & {
  name: string;
  label: string;
  /** The message under the field; the text area is marked invalid while there is one. */
  error?: string | undefined;
};

/** A labelled multi-line input, the text-area twin of TextField. */
export function TextAreaField({ label, error, className, ...textarea }: TextAreaFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={fieldStyles.field}>
      <label className={fieldStyles.label} htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        className={[styles.input, className].filter(Boolean).join(' ')}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...textarea}
      />
      {error && (
        <p id={errorId} className={fieldStyles.error}>
          {error}
        </p>
      )}
    </div>
  );
}
