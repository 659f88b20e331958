import type { SingleCampaign } from '@notice-desk/contract/campaigns';
import styles from './campaign-detail.module.css';

const choiceWords = {
  skip: 'skipped',
  new: 'imported as new records',
  update: 'updated where not served',
} as const;

/**
 * What the campaign's import did with rows already imported: 'Duplicates: skipped (12)'. Nothing for
 * manual entries, older imports, and imports that had none.
 */
export function DuplicatesNote({ duplicates }: { duplicates: SingleCampaign['duplicates'] }) {
  if (!duplicates || duplicates.rows === 0) return null;
  return (
    <p className={styles.duplicates}>
      Duplicates: {choiceWords[duplicates.choice]} ({duplicates.rows.toLocaleString('en-US')})
    </p>
  );
}
