import { useRef, type ReactNode } from 'react';
import { Modal } from './modal.tsx';

export type ConfirmDialogProps = {
  open: boolean;
  /** The question, e.g. 'Are you sure you want to delete all notices?' */
  question: string;
  /** What the answer will do, said under the question (how many records are archived and erased). */
  children?: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** The confirmed action is running: buttons are disabled and the dialog stays open. */
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
};

/** Asks before something that cannot be undone. Focus starts on Cancel, the safe answer. */
export function ConfirmDialog({
  open,
  question,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  busy = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      open={open}
      title={question}
      onClose={onCancel}
      initialFocus={cancelRef}
      dismissible={!busy}
      footer={
        <>
          <button
            ref={cancelRef}
            type="button"
            className="button button-secondary"
            disabled={busy}
            onClick={onCancel}
          >
            {cancelLabel}
          </button>
          <button type="button" className="button button-danger" disabled={busy} onClick={onConfirm}>
            {confirmLabel}
          </button>
        </>
      }
    >
      {children}
    </Modal>
  );
}
