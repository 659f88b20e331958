import { useState, type ChangeEvent, type FormEvent } from 'react';
import { auditActionLabels, auditActions, type AuditAction } from '@notice-desk/contract/audit';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import styles from './audit-log.module.css';

/** The filters of the audit log; '' is 'any'. Dates are the date inputs' YYYY-MM-DD. */
export type AuditFilterValues = { action: AuditAction | ''; actor: string; from: string; to: string };

export const noAuditFilters: AuditFilterValues = { action: '', actor: '', from: '', to: '' };

const actionOptions = [
  { value: '', label: 'All actions' },
  ...auditActions.map((action) => ({ value: action, label: auditActionLabels[action] })),
];

const isAuditAction = (value: string): value is AuditAction =>
  (auditActions as readonly string[]).includes(value);

export const DATE_ORDER_MESSAGE = 'To must be the same day as From or later.';

type AuditFiltersProps = {
  /** The filters in force, which the form starts from. */
  applied: AuditFilterValues;
  onApply: (filters: AuditFilterValues) => void;
};

/** The filter bar: action, who (username), and a date range; applied together with 'Apply filters'. */
export function AuditFilters({ applied, onApply }: AuditFiltersProps) {
  const [draft, setDraft] = useState(applied);
  const [dateError, setDateError] = useState<string | undefined>(undefined);
  const set = <TKey extends keyof AuditFilterValues>(key: TKey, value: AuditFilterValues[TKey]) => {
    setDraft((current) => ({ ...current, [key]: value }));
    if (key === 'from' || key === 'to') setDateError(undefined);
  };

  /** A typed-in filter's input: its name, its draft value, and each edit into the draft. */
  const typed = (key: 'actor' | 'from' | 'to') => ({
    name: key,
    value: draft[key],
    onChange: (event: ChangeEvent<HTMLInputElement>) => set(key, event.target.value),
  });

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // YYYY-MM-DD strings order as the days do.
    if (draft.from && draft.to && draft.to < draft.from) {
      setDateError(DATE_ORDER_MESSAGE);
      const to = event.currentTarget.elements.namedItem('to');
      if (to instanceof HTMLElement) to.focus();
      return;
    }
    onApply({ ...draft, actor: draft.actor.trim() });
  };

  const clear = () => {
    setDraft(noAuditFilters);
    setDateError(undefined);
    onApply(noAuditFilters);
  };

  return (
    <form className={`panel ${styles.filters}`} aria-label="Audit log filters" onSubmit={apply} noValidate>
      <SelectField
        label="Action"
        name="action"
        options={actionOptions}
        value={draft.action}
        onChange={(event) => set('action', isAuditAction(event.target.value) ? event.target.value : '')}
      />
      <TextField label="Who (username)" {...typed('actor')} autoComplete="off" spellCheck={false} />
      <TextField label="From" type="date" {...typed('from')} max={draft.to || undefined} />
      <TextField label="To" type="date" {...typed('to')} min={draft.from || undefined} error={dateError} />
      <div className={styles.filterButtons}>
        <button type="submit" className="button button-primary">
          Apply filters
        </button>
        <button type="button" className="button button-secondary" onClick={clear}>
          Clear
        </button>
      </div>
    </form>
  );
}
