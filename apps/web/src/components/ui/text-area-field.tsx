import type { ComponentProps } from 'react';
import { LabelledField } from './labelled-field.tsx';
import styles from './text-area-field.module.css';

type TextAreaFieldProps = Omit<ComponentProps<'textarea'>, 'id'> & {
  name: string;
  label: string;
  /** The message under the field; the text area is marked invalid while there is one. */
  error?: string | undefined;
};

/** A labelled multi-line input, the text-area twin of TextField. */
export function TextAreaField({ label, error, className, ...textarea }: TextAreaFieldProps) {
  return (
    <LabelledField label={label} error={error}>
      {(control) => (
        <textarea
          {...control}
          className={[styles.input, className].filter(Boolean).join(' ')}
          {...textarea}
        />
      )}
    </LabelledField>
  );
}
