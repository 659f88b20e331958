import { useId } from 'react';
import styles from './progress-bar.module.css';

type ProgressBarProps = {
  /** The visible title, which is also the bar's accessible name. */
  label: string;
  /** A whole percentage from 0 to 100. */
  value: number;
  /** A line under the bar saying what it counts ('Sending notices: 200 of 1,000 records'), read with it. */
  caption?: string | null | undefined;
};

/** A titled progress bar with its percentage, for work the page is waiting on (an import, a batch send). */
export function ProgressBar({ label, value, caption }: ProgressBarProps) {
  const labelId = useId();
  const captionId = useId();
  const percentage = Math.min(100, Math.max(0, Math.round(value)));
  return (
    <div className={styles.panel}>
      <div className={styles.header}>
        <span id={labelId} className={styles.label}>
          {label}
        </span>
        <span className={styles.percentage}>{percentage}%</span>
      </div>
      <div
        className={styles.track}
        role="progressbar"
        aria-labelledby={labelId}
        aria-describedby={caption ? captionId : undefined}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percentage}
      >
        <div className={styles.fill} style={{ width: `${percentage}%` }} />
      </div>
      {caption && (
        <p id={captionId} className={styles.caption}>
          {caption}
        </p>
      )}
    </div>
  );
}
