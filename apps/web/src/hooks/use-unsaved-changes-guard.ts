import { useCallback, useEffect, useRef } from 'react';
import { useBlocker } from 'react-router';

/**
 * While `unsaved`, leaving the page asks first: a link, Cancel or Back inside the app is held (the
 * caller shows the blocker's question and calls its proceed or reset), and closing or reloading the
 * tab gets the browser's own warning, unless `keptOnUnload` (a form whose draft the browser keeps loses
 * nothing there). A move within the same path (a query change) is never held.
 */
export function useUnsavedChangesGuard(unsaved: boolean, { keptOnUnload = false } = {}) {
  const saving = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      unsaved && !saving.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!unsaved || keptOnUnload) return;
    const warn = (event: BeforeUnloadEvent) => {
      if (saving.current) return;
      event.preventDefault();
      // Older browsers show the warning only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved, keptOnUnload]);
  /** Runs a save that leaves the page once it succeeds: the guard lets that move through. */
  const whileSaving = useCallback(async <T>(save: () => Promise<T>): Promise<T> => {
    saving.current = true;
    try {
      return await save();
    } finally {
      saving.current = false;
    }
  }, []);
  return { blocker, whileSaving };
}
