import type { ReactNode, Ref } from 'react';
import toast from 'react-hot-toast';
import { signedOut } from '../../lib/session.ts';
import { useLogoutMutation } from '../../lib/session-api.ts';
import { useAppDispatch } from '../../lib/store.ts';
import { MenuIcon } from '../ui/icons.tsx';
import { avatarSrc } from './avatar.ts';
import styles from './app-header.module.css';

type AppHeaderProps = {
  menuButtonRef: Ref<HTMLButtonElement>;
  drawerId: string;
  drawerOpen: boolean;
  onOpenMenu: () => void;
  /** The search box, which the app layer provides (it is a feature: shared code cannot import it). */
  search?: ReactNode;
};

export function AppHeader({ menuButtonRef, drawerId, drawerOpen, onOpenMenu, search }: AppHeaderProps) {
  const dispatch = useAppDispatch();
  const [endSession, { isLoading }] = useLogoutMutation();

  // The server ends the session first, so a copy of the token stops working too; the browser forgets
  // it whatever the answer (a server out of reach must not keep the user signed in here). The guard
  // then sends the now anonymous user to the login page.
  const logout = async () => {
    await endSession()
      .unwrap()
      .catch(() => undefined);
    dispatch(signedOut());
    toast.success('Logged out successfully.');
  };

  return (
    <header className={styles.header}>
      <button
        ref={menuButtonRef}
        type="button"
        className={styles.menuButton}
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={drawerOpen}
        aria-controls={drawerId}
        onClick={onOpenMenu}
      >
        <MenuIcon />
      </button>
      <div className={styles.search}>{search}</div>
      <div className={styles.actions}>
        <button
          type="button"
          className="button button-secondary"
          disabled={isLoading}
          onClick={() => void logout()}
        >
          Logout
        </button>
        <img className={styles.avatar} src={avatarSrc} alt="Avatar" width={36} height={36} />
      </div>
    </header>
  );
}
