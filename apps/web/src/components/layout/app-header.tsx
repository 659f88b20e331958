import type { Ref } from 'react';
import toast from 'react-hot-toast';
import { signedOut } from '../../lib/session.ts';
import { useAppDispatch } from '../../lib/store.ts';
import { MenuIcon, SearchIcon } from '../ui/icons.tsx';
import { avatarSrc } from './avatar.ts';
import styles from './app-header.module.css';

type AppHeaderProps = {
  menuButtonRef: Ref<HTMLButtonElement>;
  drawerId: string;
  drawerOpen: boolean;
  onOpenMenu: () => void;
};

export function AppHeader({ menuButtonRef, drawerId, drawerOpen, onOpenMenu }: AppHeaderProps) {
  const dispatch = useAppDispatch();

  // The guard sends the now anonymous user to the login page.
  const logout = () => {
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
      <div className={styles.search}>
        <SearchIcon className={styles.searchIcon} />
        <input type="search" className={styles.searchInput} placeholder="Search..." aria-label="Search" />
      </div>
      <div className={styles.actions}>
        <button type="button" className="button button-secondary" onClick={logout}>
          Logout
        </button>
        <img className={styles.avatar} src={avatarSrc} alt="Avatar" width={36} height={36} />
      </div>
    </header>
  );
}
