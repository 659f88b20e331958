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

/** What a row's Delete does, said in its question. */
export const DELETE_OUTCOME =
  'If it was served, it is archived with its evidence; if not, it cannot be brought back.';

/**
 * The question a row's Delete asks: whose record, the number that tells two customers of one name
 * apart, and what becomes of it: a served record goes to the archive with its evidence (the server
 * keeps it), one never served is gone. E.g. 'Delete the notice for Ravi Kumar (LN100012)? If it was
 * served, it is archived with its evidence; if not, it cannot be brought back.'
 */
export function deleteRecordQuestion(kind: string, name: string, reference: string): string {
  const whose = name.trim() || 'this customer';
  const which = reference.trim() ? ` (${reference.trim()})` : '';
  return `Delete the ${kind} for ${whose}${which}? ${DELETE_OUTCOME}`;
}
