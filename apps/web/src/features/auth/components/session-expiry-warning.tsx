import { useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { toastApiProblem } from '../../../lib/api-error.ts';
import { selectAccessToken, sessionRenewed, tokenExpiresAt } from '../../../lib/session.ts';
import { useRefreshSessionMutation } from '../../../lib/session-api.ts';
import { useAppDispatch, useAppSelector } from '../../../lib/store.ts';
import styles from './session-expiry-warning.module.css';

/** How long before the session ends the notice offers to stay signed in. */
export const EXPIRY_WARNING_MS = 2 * 60 * 1000;
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/**
 * Two minutes before the session's token ends, offers to stay signed in: a new token for the same
 * session, and the screen goes on as it was. Ignored, the session ends, and a submit after that opens
 * the sign-in over the screen (ReauthDialog).
 */
export function SessionExpiryWarning() {
  const dispatch = useAppDispatch();
  const token = useAppSelector(selectAccessToken);
  const [refresh, { isLoading }] = useRefreshSessionMutation();
  const [warnedToken, setWarnedToken] = useState<string | null>(null);
  const endsAt = token ? tokenExpiresAt(token) : null;

  useEffect(() => {
    // Already over: the next request is refused and the sign-in dialog takes it from there.
    if (!token || endsAt === null || endsAt <= Date.now()) return;
    const delay = Math.max(0, endsAt - EXPIRY_WARNING_MS - Date.now());
    // Past a timer's longest delay (about 24.8 days) it would fire at once: a remembered device's
    // 30-day session is not warned about in a page kept open that long.
    if (delay > MAX_TIMER_DELAY_MS) return;
    const timer = window.setTimeout(() => setWarnedToken(token), delay);
    return () => window.clearTimeout(timer);
  }, [token, endsAt]);

  const open = warnedToken !== null && warnedToken === token;
  const close = () => setWarnedToken(null);

  const staySignedIn = async () => {
    try {
      const { token: renewed, user } = await refresh().unwrap();
      dispatch(sessionRenewed({ accessToken: renewed, user }));
      toast.success('You are still signed in.');
    } catch (error) {
      toastApiProblem(error, 'Your session could not be renewed.');
    } finally {
      close();
    }
  };

  if (!open) return null;
  return (
    <div className={styles.warning} role="alert">
      <p>
        Your session ends at{' '}
        {endsAt !== null && (
          <time dateTime={new Date(endsAt).toISOString()}>
            {new Date(endsAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}
          </time>
        )}
        . Stay signed in to keep working.
      </p>
      <div className={styles.buttons}>
        <button type="button" className="button button-secondary button-small" onClick={close}>
          Not now
        </button>
        <button
          type="button"
          className="button button-primary button-small"
          disabled={isLoading}
          onClick={() => void staySignedIn()}
        >
          Stay signed in
        </button>
      </div>
    </div>
  );
}
