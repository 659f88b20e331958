import { useId, type ReactNode } from 'react';
import tableStyles from './data-table.module.css';

type FilterSelectProps = {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The list's own layout of the filter. */
  className?: string | undefined;
  /** The options. */
  children: ReactNode;
};

/** A list's filter above its table: a labelled drop-down styled like the table's page-size selector. */
export function FilterSelect({ label, value, onChange, className, children }: FilterSelectProps) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id}>{label}</label>
      <select
        className={tableStyles.select}
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        {children}
      </select>
    </div>
  );
}
