import styles from './spinner.module.css';

/** A busy indicator with a name for screen readers. */
export function Spinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className={styles.wrapper} role="status">
      <span className={styles.spinner} aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
