import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import styles from './modal.module.css';

export type ModalProps = {
  open: boolean;
  /** The dialog's heading and accessible name. */
  title: string;
  /** Escape, the backdrop, or a close button: the owner sets `open` to false. */
  onClose: () => void;
  children?: ReactNode;
  /** Buttons along the bottom (Close, Submit…). */
  footer?: ReactNode;
  /** What takes focus on opening; otherwise the first focusable element. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Ignore Escape and backdrop taps (while a request runs). */
  dismissible?: boolean;
};

/**
 * An in-app modal on the native <dialog>: the page behind is inert, focus stays inside and
 * goes back where it was on closing. Never window.confirm/alert, which block the page.
 */
export function Modal({
  open,
  title,
  onClose,
  children,
  footer,
  initialFocus,
  dismissible = true,
}: ModalProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      initialFocus?.current?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open, initialFocus]);

  return (
    <dialog
      ref={dialogRef}
      className={styles.dialog}
      aria-labelledby={titleId}
      aria-describedby={children ? bodyId : undefined}
      onCancel={(event) => {
        // Escape: the owner decides, so `open` and the dialog never disagree.
        event.preventDefault();
        if (dismissible) onClose();
      }}
      onClick={(event) => {
        // A click on the dialog element itself is a click on its backdrop.
        if (event.target === event.currentTarget && dismissible) onClose();
      }}
    >
      {open && (
        <div className={styles.content}>
          <h2 id={titleId} className={styles.title}>
            {title}
          </h2>
          {children && (
            <div id={bodyId} className={styles.body}>
              {children}
            </div>
          )}
          {footer && <div className={styles.footer}>{footer}</div>}
        </div>
      )}
    </dialog>
  );
}
