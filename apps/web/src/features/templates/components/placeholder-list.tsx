import { useId } from 'react';
import { templateFormatters } from '@notice-desk/contract/templates';
import styles from './template-editor.module.css';

/** How a template writes a record field, e.g. `{{custName}}`. */
export const placeholderText = (fieldKey: string) => `{{${fieldKey}}}`;

type PlaceholderListProps = {
  /** The record field keys the template may name. */
  placeholders: readonly string[];
  /** Inserts a placeholder's text where the cursor was in the template. */
  onInsert: (text: string) => void;
};

/** The placeholders a template may use, each a button that inserts it at the cursor. */
export function PlaceholderList({ placeholders, onInsert }: PlaceholderListProps) {
  const headingId = useId();
  return (
    <section className={styles.placeholders} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.asideTitle}>
        Placeholders
      </h2>
      <p className={styles.hint}>
        Each is replaced by the record&apos;s value. Click one to insert it at the cursor.
      </p>
      <ul className={styles.placeholderList}>
        {placeholders.map((fieldKey) => (
          <li key={fieldKey}>
            <button
              type="button"
              className={styles.placeholder}
              onClick={() => onInsert(placeholderText(fieldKey))}
            >
              <span className="visually-hidden">Insert </span>
              {placeholderText(fieldKey)}
            </button>
          </li>
        ))}
      </ul>
      <h3 className={styles.asideTitle}>Formats</h3>
      <p className={styles.hint}>
        Add one after a field&apos;s name, such as <code>{'{{noticeBalance | inr}}'}</code>. A value that is
        no amount or date prints as it is.
      </p>
      <dl className={styles.formatterList}>
        {templateFormatters.map((formatter) => (
          <div key={formatter.name}>
            <dt>
              <code>| {formatter.name}</code>
            </dt>
            <dd>
              {formatter.says}: {formatter.example}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
