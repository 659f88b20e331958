import { useId, type ComponentProps } from 'react';
import styles from './checkbox-field.module.css';

type CheckboxFieldProps = Omit<ComponentProps<'input'>, 'id' | 'type'> & { label: string };

export function CheckboxField({ label, ...input }: CheckboxFieldProps) {
  const id = useId();
  return (
    <div className={styles.field}>
      <input id={id} type="checkbox" className={styles.checkbox} {...input} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}
