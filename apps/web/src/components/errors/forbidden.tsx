import { Link } from 'react-router';
import { paths } from '../../config/paths.ts';
import styles from './route-error.module.css';

/** What a signed-in user who is not an ADMIN sees on an ADMIN-only page (403), with a way back. */
export function Forbidden() {
  return (
    <div className={styles.page}>
      <title>Access denied | LND</title>
      <div className={styles.card}>
        <p className={styles.code}>403</p>
        <h1 className={styles.title}>Access denied</h1>
        <p className={styles.text}>
          This page is for ADMIN users only. Ask an ADMIN if you need something on it.
        </p>
        <Link className="button button-primary" to={paths.home.getHref()}>
          Back to Home
        </Link>
      </div>
    </div>
  );
}
