import { isRouteErrorResponse, Link, useLocation, useRouteError } from 'react-router';
import { paths } from '../../config/paths.ts';
import styles from './route-error.module.css';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : 'Something went wrong.';
}

/**
 * The screen for any error a route does not handle itself, including unknown paths (404). A card like
 * the rest of the app's; `standalone` when it is the whole page (outside the signed-in frame): then it
 * is the page's main landmark, on the login pages' background.
 */
export function RouteError({ standalone = false }: { standalone?: boolean }) {
  const error = useRouteError();
  const { pathname } = useLocation();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const Page = standalone ? 'main' : 'div';
  return (
    <Page className={standalone ? `${styles.page} ${styles.standalone}` : styles.page}>
      <title>{notFound ? 'Page not found | LND' : 'Error | LND'}</title>
      <div className={styles.card} role="alert">
        {notFound ? (
          <>
            <p className={styles.code}>404</p>
            {/* The page's own heading: the screen that failed never rendered its h1. */}
            <h1 className={styles.title}>Page not found</h1>
            <h2 className={styles.detail}>{describe(error)}</h2>
            <p className={styles.text}>
              Nothing lives at <code className={styles.path}>{pathname}</code>. The link may be old, or the
              address mistyped.
            </p>
          </>
        ) : (
          <>
            <h1 className={styles.title}>Unexpected Application Error!</h1>
            <h2 className={styles.detail}>{describe(error)}</h2>
          </>
        )}
        <Link className="button button-primary" to={paths.home.getHref()}>
          Back to Home
        </Link>
      </div>
    </Page>
  );
}
