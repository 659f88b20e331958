import { useEffect, useState, type ReactNode } from 'react';
import { Toaster, type ToasterProps } from 'react-hot-toast';
import { Provider } from 'react-redux';
import { parseStoredSession, sessionRestored, SESSION_STORAGE_KEY } from '../lib/session.ts';
import { createAppStore } from '../lib/store.ts';

// The spec's toast timings and sizes. (At most 20 toasts are kept: the library's fixed limit.)
const toasterProps: ToasterProps = {
  gutter: 8,
  // 16px from the edges, and no taller than its toasts (which hang from its top edge): a container
  // over the whole page would lie over the fixed sidebar, where contrast checks (axe) then cannot
  // tell the sidebar's background.
  containerStyle: { top: 16, right: 16, bottom: 'auto', left: 16 },
  toastOptions: {
    removeDelay: 1000,
    style: { maxWidth: 350 },
    success: { duration: 2000 },
    error: { duration: 4000 },
    blank: { duration: 4000 },
    custom: { duration: 4000 },
    loading: { duration: Infinity },
  },
};

export function AppProvider({ children }: { children: ReactNode }) {
  const [store] = useState(() => createAppStore());

  // A login or logout in another tab applies here too.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === SESSION_STORAGE_KEY || event.key === null) {
        store.dispatch(sessionRestored(parseStoredSession(event.newValue)));
      }
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [store]);

  return (
    <Provider store={store}>
      {children}
      <Toaster {...toasterProps} />
    </Provider>
  );
}
