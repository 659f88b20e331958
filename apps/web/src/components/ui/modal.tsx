import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import { keepTabInside, tabbableWithin } from '../../utils/focus-trap.ts';
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
  /** The window's whole width (a margin aside), for a step with a table or many choices. */
  wide?: boolean;
};

/**
 * An in-app modal on the native <dialog>: the page behind is inert, focus moves inside on opening,
 * Tab stays inside, Escape closes it, and focus goes back to what opened it on closing.
 * Never window.confirm/alert, which block the page.
 */
export function Modal({
  open,
  title,
  onClose,
  children,
  footer,
  initialFocus,
  dismissible = true,
  wide = false,
}: ModalProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  /** What had focus when the dialog opened, to give it back on closing. */
  const openerRef = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      openerRef.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      (initialFocus?.current ?? tabbableWithin(dialog)[0] ?? dialog).focus();
    } else if (!open && dialog.open) {
      dialog.close();
      const opener = openerRef.current;
      openerRef.current = null;
      if (opener?.isConnected) opener.focus();
    }
  }, [open, initialFocus]);

  return (
    <dialog
      ref={dialogRef}
      className={wide ? `${styles.dialog} ${styles.wide}` : styles.dialog}
      // Focusable itself, for a dialog with nothing else to focus.
      tabIndex={-1}
      aria-labelledby={titleId}
      aria-describedby={children ? bodyId : undefined}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          // The owner decides, so `open` and the dialog never disagree.
          event.preventDefault();
          if (dismissible) onClose();
          return;
        }
        if (dialogRef.current) keepTabInside(event.nativeEvent, dialogRef.current);
      }}
      onCancel={(event) => {
        // The browser's own close request (Escape, a back gesture): the owner decides here too.
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
