import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { paths } from '../../config/paths.ts';
import styles from './route-error.module.css';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : 'Something went wrong.';
}

/** The screen for any error a route does not handle itself, including unknown paths. */
export function RouteError() {
  const error = useRouteError();
  return (
    <div className={styles.page} role="alert">
      <h2 className={styles.title}>Unexpected Application Error!</h2>
      <h3 className={styles.detail}>{describe(error)}</h3>
      <Link className="button button-primary" to={paths.home.getHref()}>
        Back to Home
      </Link>
    </div>
  );
}
