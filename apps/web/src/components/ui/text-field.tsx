import type { ComponentProps } from 'react';
import { LabelledField } from './labelled-field.tsx';
import styles from './text-field.module.css';

type TextFieldProps = Omit<ComponentProps<'input'>, 'id'> & {
  name: string;
  label: string;
  /** The message under the field; the input is marked invalid while there is one. */
  error?: string | undefined;
  /** A note under the field about what its value means, announced as it changes ('' for none yet). */
  hint?: string | undefined;
};

/** A labelled input with its validation message tied to it for assistive technology. */
export function TextField({ label, error, hint, className, ...input }: TextFieldProps) {
  return (
    <LabelledField
      label={label}
      error={error}
      after={
        // Read out as it changes (a language typed names its template), not tied to the input like a message.
        hint !== undefined && (
          <p className={styles.hint} aria-live="polite" hidden={!hint}>
            {hint}
          </p>
        )
      }
    >
      {(control) => (
        <input {...control} className={[styles.input, className].filter(Boolean).join(' ')} {...input} />
      )}
    </LabelledField>
  );
}
