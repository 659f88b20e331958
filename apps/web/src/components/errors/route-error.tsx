import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { paths } from '../../config/paths.ts';
import styles from './route-error.module.css';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : 'Something went wrong.';
}

/**
 * The screen for any error a route does not handle itself, including unknown paths. `standalone`
 * when it is the whole page (outside the signed-in frame), so it is the page's main landmark.
 */
export function RouteError({ standalone = false }: { standalone?: boolean }) {
  const error = useRouteError();
  const Page = standalone ? 'main' : 'div';
  return (
    <Page className={styles.page}>
      <div className={styles.message} role="alert">
        {/* The page's own heading: the screen that failed never rendered its h1. */}
        <h1 className={styles.title}>Unexpected Application Error!</h1>
        <h2 className={styles.detail}>{describe(error)}</h2>
      </div>
      <Link className="button button-primary" to={paths.home.getHref()}>
        Back to Home
      </Link>
    </Page>
  );
}
