import { Navigate, Outlet } from 'react-router';
import { Forbidden } from '../components/errors/forbidden.tsx';
import { paths } from '../config/paths.ts';
import { selectIsAdmin, selectIsSignedIn } from './session.ts';
import { useAppSelector } from './store.ts';

/** Signed-in-only pages: an anonymous user goes to the login page. */
export function RequireSignedIn() {
  const signedIn = useAppSelector(selectIsSignedIn);
  return signedIn ? <Outlet /> : <Navigate to={paths.auth.login.getHref()} replace />;
}

/** Guest-only pages (login, sign-up): a signed-in user goes home. */
export function RequireGuest() {
  const signedIn = useAppSelector(selectIsSignedIn);
  return signedIn ? <Navigate to={paths.home.getHref()} replace /> : <Outlet />;
}

/** ADMIN-only pages (templates, audit log): other users see why they cannot, with a way back (403). */
export function RequireAdmin() {
  const admin = useAppSelector(selectIsAdmin);
  return admin ? <Outlet /> : <Forbidden />;
}
