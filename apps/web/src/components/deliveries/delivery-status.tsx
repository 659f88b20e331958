import { useId, useState, type KeyboardEvent } from 'react';
import { deliveryStatusWord } from './delivery-status-words.ts';
import styles from './delivery-status.module.css';

/**
 * How a status looks: delivered ones green, 'outbox' grey (written to the outbox folder, no
 * provider configured: nothing went anywhere), waiting amber, failed and bounced red (a bounced
 * notice was returned by the mail server: it was not served).
 */
export type DeliveryTone = 'success' | 'neutral' | 'pending' | 'failure';

export function deliveryTone(status: string): DeliveryTone {
  switch (status) {
    case 'sent':
    case 'delivered':
    case 'read':
      return 'success';
    case 'queued':
      return 'pending';
    case 'failed':
    case 'bounced':
    case 'not_serviceable':
      return 'failure';
    default:
      return 'neutral';
  }
}

type DeliveryStatusProps = {
  /** The latest status on a channel ('queued', 'outbox', 'sent', 'delivered', 'read', 'failed', 'bounced'), '' or '-'. */
  status: string;
  /** Why it failed or bounced, when it did. */
  error?: string | null | undefined;
  /** Overrides the tone the status would have. */
  tone?: DeliveryTone;
};

/**
 * A channel's latest status as a small badge, in words ('Sent', 'Outbox (not sent: no provider set
 * up)'). A failure or bounce offers its reason on hover, focus
 * and tap, and on a phone (below 640 px, no hover) also shows it under the badge.
 */
export function DeliveryStatus({ status, error, tone }: DeliveryStatusProps) {
  if (!status || status === '-') return <span className={styles.none}>-</span>;
  const className = `${styles.badge} ${styles[tone ?? deliveryTone(status)]}`;
  if ((status === 'failed' || status === 'bounced' || status === 'not_serviceable') && error)
    return <FailedStatus className={className} status={status} reason={error} />;
  return <span className={className}>{deliveryStatusWord(status)}</span>;
}

/**
 * The reason is a tooltip that describes the badge (aria-describedby), so a screen reader reads it
 * with the status. It shows while the pointer is over the badge or the tooltip, while the badge
 * has keyboard focus, and after a tap (touch gives no hover, and Safari no focus); Escape hides it.
 */
function FailedStatus({ className, status, reason }: { className: string; status: string; reason: string }) {
  const tooltipId = useId();
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [pinned, setPinned] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const open = !dismissed && (hovered || focused || pinned);

  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && open) {
      event.stopPropagation();
      setDismissed(true);
      setPinned(false);
    }
  };

  return (
    <span
      className={styles.anchor}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => {
        setHovered(false);
        setDismissed(false);
      }}
    >
      <button
        type="button"
        className={`${className} ${styles.trigger}`}
        aria-describedby={tooltipId}
        onFocus={() => setFocused(true)}
        onBlur={() => {
          setFocused(false);
          setPinned(false);
          setDismissed(false);
        }}
        onClick={() => {
          setDismissed(false);
          setPinned((shown) => !shown);
        }}
        onKeyDown={closeOnEscape}
      >
        {deliveryStatusWord(status)}
      </button>
      <span id={tooltipId} role="tooltip" className={styles.tooltip} hidden={!open}>
        {reason}
      </span>
      {/* Read already through the tooltip that describes the badge: hidden from screen readers here. */}
      <span className={styles.inlineReason} aria-hidden="true">
        {reason}
      </span>
    </span>
  );
}
