import { DeliveryStatus } from './delivery-status.tsx';
import { deliveryStatusMeanings } from './delivery-status-words.ts';
import styles from './delivery-status.module.css';

/** 'What the statuses mean': each status's badge, as the table shows it, and what it says happened. */
export function DeliveryStatusLegend() {
  return (
    <details className={styles.legend}>
      <summary>What the statuses mean</summary>
      <dl>
        {deliveryStatusMeanings.map(({ status, meaning }) => (
          <div key={status} className={styles.legendEntry}>
            <dt>
              <DeliveryStatus status={status} />
            </dt>
            <dd>{meaning}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
