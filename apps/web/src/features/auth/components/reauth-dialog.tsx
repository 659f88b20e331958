import { useNavigate } from 'react-router';
import { Modal } from '../../../components/ui/modal.tsx';
import { paths } from '../../../config/paths.ts';
import {
  selectReauthRequired,
  selectSignedInUser,
  sessionExpired,
  sessionRenewed,
  signedIn,
  type Session,
} from '../../../lib/session.ts';
import { useAppDispatch, useAppSelector } from '../../../lib/store.ts';
import { LoginForm } from './login-form.tsx';

/**
 * The sign-in, opened over the screen when a request is refused (401) while the user works: what was
 * typed stays, and the refused submit goes on once the same user has signed in (lib/reauth.ts).
 * Someone else signing in starts their own session on their dashboard; closing the dialog ends the
 * session as an expiry does.
 */
export function ReauthDialog() {
  const dispatch = useAppDispatch();
  const open = useAppSelector(selectReauthRequired);
  const user = useAppSelector(selectSignedInUser);

  const navigate = useNavigate();

  const onSignedIn = (session: Session) => {
    if (session.user._id === user?._id) {
      dispatch(sessionRenewed(session));
      return;
    }
    dispatch(signedIn(session));
    void navigate(paths.home.getHref());
  };

  return (
    <Modal open={open} title="Login" onClose={() => dispatch(sessionExpired())}>
      <p role="status">Your session has expired. Please sign in again.</p>
      {user && <p>What you typed is kept: sign in as {user.username} to go on.</p>}
      {open && <LoginForm onSuccess={() => undefined} onSignedIn={onSignedIn} />}
    </Modal>
  );
}
