import { useId, type ComponentProps } from 'react';
import styles from './text-field.module.css';

type SelectFieldProps = Omit<ComponentProps<'select'>, 'id'> & {
  name: string;
  label: string;
  options: readonly { value: string; label: string }[];
};

/** A labelled drop-down, laid out like TextField. */
export function SelectField({ label, options, className, ...select }: SelectFieldProps) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <select id={id} className={[styles.input, className].filter(Boolean).join(' ')} {...select}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
