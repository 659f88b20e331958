import { Link } from 'react-router';
import styles from './record-actions.module.css';

type RecordActionsProps = {
  /** Whose record this is (the customer name), so each row's buttons have their own accessible name. */
  name: string;
  editHref: string;
  /** Asks whether to delete the record (the list's confirmation dialog). */
  onDelete: () => void;
  /** The record's PDF, or null while it has none (nothing is shown then). */
  pdfHref: string | null;
};

/** The Action cell of the credit-card and notice lists: edit, delete and the PDF link. */
export function RecordActions({ name, editHref, onDelete, pdfHref }: RecordActionsProps) {
  const suffix = <span className="visually-hidden"> {name}</span>;

  return (
    <div className={styles.actions}>
      <Link className="button button-secondary button-small" to={editHref}>
        Edit{suffix}
      </Link>
      <button type="button" className="button button-danger button-small" onClick={onDelete}>
        Delete{suffix}
      </button>
      {pdfHref && (
        <a className="button button-secondary button-small" href={pdfHref} target="_blank" rel="noopener">
          PDF{suffix}
          <span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      )}
    </div>
  );
}

/** The link to a record's PDF: the list's pdfUrl prefix and the record's pdfLink; null when it has none. */
export function recordPdfHref(pdfUrl: string, pdfLink: string): string | null {
  return pdfLink ? `${pdfUrl}${pdfLink}` : null;
}

/**
 * The question a row's Delete asks: whose record, and the number that tells two customers of one name
 * apart, e.g. 'Delete the notice for Ravi Kumar (LN100012)? This cannot be undone.'
 */
export function deleteRecordQuestion(kind: string, name: string, reference: string): string {
  const whose = name.trim() || 'this customer';
  const which = reference.trim() ? ` (${reference.trim()})` : '';
  return `Delete the ${kind} for ${whose}${which}? This cannot be undone.`;
}
