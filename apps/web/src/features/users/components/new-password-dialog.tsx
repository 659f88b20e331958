import { useRef, useState } from 'react';
import { Modal } from '../../../components/ui/modal.tsx';
import styles from './users-screen.module.css';

export type ShownPassword = { username: string; password: string };

/**
 * A new password, shown this once: the server keeps only its hash. Copy puts it on the clipboard; closing
 * the dialog forgets it.
 */
export function NewPasswordDialog({ shown, onClose }: { shown: ShownPassword | null; onClose: () => void }) {
  const copyRef = useRef<HTMLButtonElement>(null);
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const close = () => {
    setCopied(null);
    onClose();
  };
  const copy = async () => {
    if (!shown) return;
    try {
      await navigator.clipboard.writeText(shown.password);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <Modal
      open={shown !== null}
      title={`New password for ${shown?.username ?? ''}`}
      onClose={close}
      initialFocus={copyRef}
      footer={
        <button type="button" className="button button-primary" onClick={close}>
          Done
        </button>
      }
    >
      <p>This password is shown only once. Copy it now and hand it to {shown?.username} safely.</p>
      <div className={styles.passwordRow}>
        <code className={styles.password} aria-label="New password">
          {shown?.password}
        </code>
        <button ref={copyRef} type="button" className="button button-secondary" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <p className={styles.copyStatus} role="status">
        {copied === 'yes' && 'Copied.'}
        {copied === 'failed' && 'The browser did not allow copying: select the password and copy it.'}
      </p>
    </Modal>
  );
}
