import { useState } from 'react';
import { Link } from 'react-router';
import styles from './record-actions.module.css';

type RecordActionsProps = {
  /** Whose record this is (the customer name), so each row's buttons have their own accessible name. */
  name: string;
  editHref: string;
  /** Deletes the record; the button stays disabled until it settles. */
  onDelete: () => Promise<void>;
  /** The record's PDF, or null while it has none (nothing is shown then). */
  pdfHref: string | null;
};

/** The Action cell of the credit-card and notice lists: edit, delete and the PDF link. */
export function RecordActions({ name, editHref, onDelete, pdfHref }: RecordActionsProps) {
  const [deleting, setDeleting] = useState(false);
  const suffix = <span className="visually-hidden"> {name}</span>;

  const remove = async () => {
    setDeleting(true);
    try {
      await onDelete();
    } finally {
      setDeleting(false);
    }
  };

  return (
    <div className={styles.actions}>
      <Link className="button button-secondary button-small" to={editHref}>
        Edit{suffix}
      </Link>
      <button
        type="button"
        className="button button-danger button-small"
        disabled={deleting}
        onClick={() => void remove()}
      >
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
