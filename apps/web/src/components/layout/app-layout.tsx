import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Outlet, useNavigation } from 'react-router';
import { AppHeader } from './app-header.tsx';
import { NavDrawer } from './nav-drawer.tsx';
import { SidebarNav } from './sidebar-nav.tsx';
import styles from './app-layout.module.css';

const DRAWER_ID = 'nav-drawer';
/** Where the fixed sidebar takes over from the drawer; keep in step with the CSS. */
const LARGE_SCREEN_QUERY = '(min-width: 1024px)';

/**
 * The signed-in frame: sidebar (drawer on small screens), header with the given search box, and the
 * current screen; `session` is what the app shows over every screen about the session (the sign-in
 * dialog, the expiry notice), which are a feature's and so given by the app.
 */
export function AppLayout({ search, session }: { search?: ReactNode; session?: ReactNode }) {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const navigation = useNavigation();

  const closeDrawer = useCallback(() => setDrawerOpen(false), []);

  // Focus goes back to the menu button once the drawer has closed: not before, while the page
  // behind the drawer is still inert and cannot take focus.
  const drawerWasOpen = useRef(false);
  useEffect(() => {
    if (drawerWasOpen.current && !drawerOpen) menuButtonRef.current?.focus();
    drawerWasOpen.current = drawerOpen;
  }, [drawerOpen]);

  // Growing past the breakpoint hides the drawer; it must not leave the page inert behind it.
  useEffect(() => {
    const largeScreen = window.matchMedia(LARGE_SCREEN_QUERY);
    const onChange = (event: MediaQueryListEvent) => {
      if (event.matches) setDrawerOpen(false);
    };
    largeScreen.addEventListener('change', onChange);
    return () => largeScreen.removeEventListener('change', onChange);
  }, []);

  return (
    <div className={styles.shell}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <aside className={styles.sidebar}>
        <SidebarNav variant="sidebar" />
      </aside>
      <NavDrawer id={DRAWER_ID} open={drawerOpen} onClose={closeDrawer}>
        <SidebarNav variant="drawer" onNavigate={closeDrawer} />
      </NavDrawer>
      <div className={styles.body} inert={drawerOpen}>
        <AppHeader
          menuButtonRef={menuButtonRef}
          drawerId={DRAWER_ID}
          drawerOpen={drawerOpen}
          onOpenMenu={() => setDrawerOpen(true)}
          search={search}
        />
        {navigation.state === 'loading' && <div className={styles.loadingBar} aria-hidden="true" />}
        <main id="main" className={styles.main} tabIndex={-1} aria-busy={navigation.state === 'loading'}>
          <Outlet />
        </main>
      </div>
      {session}
    </div>
  );
}
