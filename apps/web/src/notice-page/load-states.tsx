import type { NoticePageWords } from './words.ts';
import styles from './notice-page.module.css';

type Words = Pick<NoticePageWords, 'loading' | 'loadFailed' | 'tryAgain'>;

/** While the page's intro or the notice's details load. */
export function Loading({ words }: { words: Words }) {
  return (
    <p className={styles.state} role="status">
      {words.loading}
    </p>
  );
}

/** A load that failed (the network, the server), with Try again, which loads it again. */
export function LoadFailed({ words, onRetry }: { words: Words; onRetry: () => void }) {
  return (
    <div className={styles.state} role="alert">
      <p>{words.loadFailed}</p>
      <button type="button" className="button button-secondary" onClick={onRetry}>
        {words.tryAgain}
      </button>
    </div>
  );
}
