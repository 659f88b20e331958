import styles from './step-wizard.module.css';

const dotState = (index: number, current: number) =>
  index < current ? 'done' : index === current ? 'current' : 'later';

/** The wizard's progress: a dot per step (finished, current, later) and, for screen readers, 'Step N of M'. */
export function StepDots({ count, current }: { count: number; current: number }) {
  return (
    <div className={styles.progress}>
      <ol className={styles.dots} aria-hidden="true">
        {Array.from({ length: count }, (_, index) => (
          <li key={index} className={styles.dot} data-state={dotState(index, current)} />
        ))}
      </ol>
      <p className="visually-hidden" aria-live="polite">
        Step {current + 1} of {count}
      </p>
    </div>
  );
}
