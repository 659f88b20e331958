import { selectSessionExpired } from '../../../lib/session.ts';
import { useAppSelector } from '../../../lib/store.ts';
import styles from './session-expired-notice.module.css';

/** Says why the login page shows when the last session ended without a logout. */
export function SessionExpiredNotice() {
  const expired = useAppSelector(selectSessionExpired);
  if (!expired) return null;
  return (
    <p className={styles.notice} role="status">
      Your session has expired. Please sign in again.
    </p>
  );
}
