import { useId } from 'react';
import type { DuplicateChoice, DuplicateReport as Report } from '@notice-desk/contract/imports';
import type { ImportKind } from '../utils/import-kinds.ts';
import styles from './duplicate-report.module.css';

type DuplicateReportProps = {
  kind: ImportKind;
  /** The scan's report; null while the rows are counted. */
  report: Report | null;
  choice: DuplicateChoice;
  onChoose: (choice: DuplicateChoice) => void;
};

const choices: { value: DuplicateChoice; label: string; hint: string }[] = [
  { value: 'skip', label: 'Skip them', hint: 'They stay out of this import; its report lists each.' },
  {
    value: 'new',
    label: 'Import them as new records',
    hint: 'A new notice round: the same borrowers get a second record.',
  },
  {
    value: 'update',
    label: 'Update the existing records not yet served',
    hint: 'The existing records take this file’s values. A served record is never changed: its row is skipped.',
  },
];

/**
 * The rows of the file already imported (by loan number, or mask number and AAN), where they are
 * and whether they were served, and what the import does with them. Repeats within the file are
 * always skipped, and said so.
 */
export function DuplicateReport({ kind, report, choice, onChoose }: DuplicateReportProps) {
  const id = useId();
  if (!report || (report.existing === 0 && report.inFile === 0)) return null;
  const number = kind === 'notice' ? 'loan number' : 'mask number and AAN';
  const total = report.existing + report.inFile;
  return (
    <section className={styles.report} aria-labelledby={`${id}-title`}>
      <h4 id={`${id}-title`} className={styles.title}>
        Already imported
      </h4>
      <p className={styles.summary} role="status">
        {report.existing > 0 &&
          `${report.existing} ${report.existing === 1 ? 'row has a' : 'rows have a'} ${number} you already imported` +
            (report.served > 0 ? ` (${report.served} of them served)` : '') +
            '. '}
        {report.inFile > 0 &&
          `${report.inFile} ${report.inFile === 1 ? 'row repeats' : 'rows repeat'} an earlier row of this file: ${report.inFile === 1 ? 'it is' : 'they are'} always skipped.`}
      </p>
      {report.existing > 0 && (
        <fieldset className={styles.choices}>
          <legend className={styles.legend}>Rows already imported</legend>
          {choices.map((option) => (
            <label key={option.value} className={styles.choice}>
              <input
                type="radio"
                name={`${id}-choice`}
                value={option.value}
                checked={choice === option.value}
                onChange={() => onChoose(option.value)}
              />
              <span>
                <span className={styles.choiceLabel}>{option.label}</span>
                <span className={styles.choiceHint}>{option.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
      )}
      <div className={styles.listWrap} role="region" aria-label="Rows already imported" tabIndex={0}>
        <ul className={styles.list}>
          {report.rows.map((row) => (
            <li key={row.rowNumber} className={styles.row}>
              <span className={styles.rowNumber}>Row {row.rowNumber}</span>
              <span className={styles.number}>{row.number || '(blank)'}</span>
              <span className={styles.where}>
                {row.repeatsRow !== null
                  ? `Repeats row ${row.repeatsRow} of this file`
                  : row.matches
                      .map((m) => `in ‘${m.campaignName}’, ${m.served ? 'served' : 'not served'}`)
                      .join('; ')}
              </span>
            </li>
          ))}
        </ul>
        {total > report.rows.length && (
          <p className={styles.more}>
            The first {report.rows.length} of {total} are listed; the import’s report lists them all.
          </p>
        )}
      </div>
    </section>
  );
}
