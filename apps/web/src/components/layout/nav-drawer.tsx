import { useEffect, useRef, type ReactNode } from 'react';
import { keepTabInside, tabbableWithin } from '../../utils/focus-trap.ts';
import { CloseIcon } from '../ui/icons.tsx';
import styles from './nav-drawer.module.css';

type NavDrawerProps = {
  id: string;
  open: boolean;
  onClose: () => void;
  children: ReactNode;
};

/**
 * The slide-in navigation of small screens: a modal panel that takes focus when it opens,
 * keeps Tab inside it, and closes on Escape or a tap on the backdrop.
 */
export function NavDrawer({ id, open, onClose, children }: NavDrawerProps) {
  const panelRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const panel = panelRef.current;
    if (!open || !panel) return;
    tabbableWithin(panel)[0]?.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        onClose();
        return;
      }
      keepTabInside(event, panel);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open, onClose]);

  return (
    <div className={open ? `${styles.drawer} ${styles.open}` : styles.drawer} data-open={open}>
      {/* Pointer users close by tapping outside; keyboard users have Escape and the close button. */}
      <div
        className={styles.backdrop}
        onClick={onClose}
        aria-hidden="true"
        data-testid="nav-drawer-backdrop"
      />
      <div
        ref={panelRef}
        id={id}
        className={styles.panel}
        role="dialog"
        aria-modal="true"
        aria-label="Navigation menu"
      >
        <button type="button" className={styles.close} aria-label="Close menu" onClick={onClose}>
          <CloseIcon />
        </button>
        {children}
      </div>
    </div>
  );
}
