import { lazy, Suspense } from 'react';
import { selectReauthRequired } from '../../../lib/session.ts';
import { useAppSelector } from '../../../lib/store.ts';

// The login form brings zod and the contract: loaded when it is needed, not with every page.
const ReauthDialog = lazy(() =>
  import('./reauth-dialog.tsx').then((module) => ({ default: module.ReauthDialog })),
);

/** Opens the sign-in dialog over the screen when a request waits for it (see ReauthDialog). */
export function ReauthGate() {
  const required = useAppSelector(selectReauthRequired);
  if (!required) return null;
  return (
    <Suspense fallback={null}>
      <ReauthDialog />
    </Suspense>
  );
}
