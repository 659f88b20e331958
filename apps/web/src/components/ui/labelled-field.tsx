import { useId, type ReactNode } from 'react';
import styles from './text-field.module.css';

/** What ties a control to its label and to its message. */
export type FieldControlProps = {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
};

type LabelledFieldProps = {
  label: string;
  /** The message under the field; the control is marked invalid while there is one. */
  error?: string | undefined;
  /** The control (and whatever goes beside it), given the props that tie it to the label and message. */
  children: (control: FieldControlProps) => ReactNode;
  /** Between the control and the message, e.g. a hint. */
  after?: ReactNode;
};

/** A label, a control and its validation message, tied together for assistive technology. */
export function LabelledField({ label, error, children, after }: LabelledFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      {children({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': error ? errorId : undefined,
      })}
      {after}
      {error && (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      )}
    </div>
  );
}
