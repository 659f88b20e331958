import type { AuditEntry } from '@notice-desk/contract/audit';
import { auditChanges } from '../utils/audit-changes.ts';
import styles from './audit-log.module.css';

/** A template body can run to megabytes; the log shows its start. */
const VALUE_SHOWN_MAX = 2_000;

function AuditValue({ text }: { text: string }) {
  if (text === '') return <span className={styles.empty}>(empty)</span>;
  if (text.length <= VALUE_SHOWN_MAX) return <span className={styles.value}>{text}</span>;
  return (
    <span className={styles.value}>
      {text.slice(0, VALUE_SHOWN_MAX)}
      <span className={styles.empty}>
        {' '}
        … {(text.length - VALUE_SHOWN_MAX).toLocaleString()} more characters
      </span>
    </span>
  );
}

/** An edit's changed fields, folded away behind a disclosure: field, before, after. */
export function AuditChanges({ entry }: { entry: AuditEntry }) {
  const changes = auditChanges(entry);
  if (changes.length === 0) return null;
  const count = `${changes.length} ${changes.length === 1 ? 'field' : 'fields'} changed`;
  return (
    <details className={styles.changes}>
      <summary className={styles.changesSummary}>
        Show changes<span className="visually-hidden">: {entry.summary},</span> ({count})
      </summary>
      <table className={styles.changesTable}>
        <caption className="visually-hidden">Changes: {entry.summary}</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Before</th>
            <th scope="col">After</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((change) => (
            <tr key={change.field}>
              <th scope="row">{change.label}</th>
              <td>
                <AuditValue text={change.before} />
              </td>
              <td>
                <AuditValue text={change.after} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
