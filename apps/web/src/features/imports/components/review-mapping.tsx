import { useEffect, useId, useMemo, useState } from 'react';
import type { ColumnMapping, DuplicateChoice, ImportPreview } from '@notice-desk/contract/imports';
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts';
import { readApiProblem } from '../../../lib/api-error.ts';
import { useGetImportPreviewQuery } from '../api/imports-api.ts';
import { blockerMessage, columnsOf, mappingBlockers, type MappedColumns } from '../utils/column-mapping.ts';
import type { ImportKind } from '../utils/import-kinds.ts';
import { DuplicateReport } from './duplicate-report.tsx';
import styles from './review-mapping.module.css';

/** The select's value for a column that fills no field. */
const IGNORED = '';
/** The pause after a change before the rows and the problem count are read again. */
const RECOUNT_MS = 400;

type ReviewMappingProps = {
  kind: ImportKind;
  /** The stored name of the upload. */
  file: string;
  /** The preview that opened the step (the header row and mapping found, or remembered). */
  initial: ImportPreview;
  /** The mapping as it stands, or null while Import must stay disabled. */
  onChange: (mapping: ColumnMapping | null) => void;
  /** What the import does with rows already imported. */
  duplicates: DuplicateChoice;
  onDuplicatesChange: (choice: DuplicateChoice) => void;
};

/**
 * The Review mapping step: the header row (changeable), each column of it with the field it fills or
 * 'Ignored' (changeable), the first 5 rows as they will be stored, and how many rows have a problem.
 * Import stays disabled, naming why, while a required field has no column or a field has two.
 */
export function ReviewMapping({
  kind,
  file,
  initial,
  onChange,
  duplicates,
  onDuplicatesChange,
}: ReviewMappingProps) {
  const [headerRow, setHeaderRow] = useState(initial.headerRow);
  // null: as the server found (or remembered) them for this header row; set once the user chooses.
  const [chosen, setChosen] = useState<MappedColumns | null>(null);
  // The rows and the problem count follow the choices once they settle. A new header row is read at
  // once (its choices start afresh), and a field chosen for two columns is not asked about: the
  // server refuses such a mapping, and the step already says what to change.
  const request = useMemo(() => ({ headerRow, columns: chosen }), [headerRow, chosen]);
  const settled = useDebouncedValue(request, RECOUNT_MS);
  const asked = chosen === null || settled.headerRow !== headerRow ? { headerRow, columns: null } : settled;
  const doubled = (columns: MappedColumns | null) =>
    !!columns && mappingBlockers(initial.fields, columns).doubled.length > 0;
  // data, not currentData: the last answer stays on screen while the next is read.
  const { data, isFetching, error } = useGetImportPreviewQuery(
    { kind, file, headerRow: asked.headerRow, ...(asked.columns && { columns: asked.columns }), scan: true },
    { skip: doubled(asked.columns) },
  );
  const counting = isFetching || (chosen !== null && settled !== request);
  // Until the full answer comes, what is known: the opening preview, or the last answer.
  const shown = data ?? initial;
  const current = shown.headerRow === headerRow ? shown : null;
  const columns = useMemo(() => chosen ?? (current ? columnsOf(current) : null), [chosen, current]);
  const blockers = current && columns ? blockerMessage(mappingBlockers(current.fields, columns)) : null;

  useEffect(() => {
    onChange(current && columns && !blockers ? { headerRow, columns } : null);
  }, [current, columns, blockers, headerRow, onChange]);

  const headerRowId = useId();
  const blockersId = useId();
  const fieldLabel = new Map(shown.fields.map((field) => [field.key, field.label]));
  const mapped = current && columns ? current.columns.filter((c) => columns[String(c.index)]) : [];
  const ambiguousWith = new Map(
    (current?.ambiguous ?? []).flatMap((a) => a.columns.map((index) => [index, fieldLabel.get(a.field)])),
  );
  const problem = error ? readApiProblem(error).message : null;

  return (
    <section className={styles.review} aria-labelledby={`${headerRowId}-title`}>
      <h3 id={`${headerRowId}-title`} className={styles.title}>
        Review mapping
      </h3>
      {/* What keeps Import disabled comes first, where it is seen without scrolling. */}
      {current && columns && (
        <p id={blockersId} className={blockers ? styles.blocker : styles.ok} role="status">
          {blockers ?? 'Every required field has a column.'}
        </p>
      )}
      <p className={styles.hint}>
        Check which field each column of {initial.fileName}
        {initial.sheetName && ` (sheet ‘${initial.sheetName}’, the first visible one)`} fills. Nothing is
        imported until you press Import.
      </p>

      <div className={styles.field}>
        <label className={styles.label} htmlFor={headerRowId}>
          Header row
        </label>
        <select
          id={headerRowId}
          className={styles.select}
          value={headerRow}
          onChange={(event) => {
            setHeaderRow(Number(event.target.value));
            setChosen(null);
          }}
        >
          {initial.headerRows.map((row) => (
            <option key={row.rowNumber} value={row.rowNumber}>
              Row {row.rowNumber}: {row.text || '(empty)'}
            </option>
          ))}
        </select>
      </div>

      {problem && (
        <p className={styles.error} role="alert">
          {problem}
        </p>
      )}

      {!current || !columns ? (
        <p className={styles.hint} role="status">
          Reading row {headerRow}…
        </p>
      ) : (
        <>
          <fieldset className={styles.columns}>
            <legend className={styles.label}>Columns</legend>
            <ul className={styles.columnList}>
              {current.columns.map((column) => (
                <ColumnChoice
                  key={column.index}
                  header={column.header}
                  index={column.index}
                  value={columns[String(column.index)] ?? null}
                  fields={current.fields}
                  tie={ambiguousWith.get(column.index)}
                  describedBy={blockers ? blockersId : undefined}
                  onChoose={(key) => setChosen({ ...columns, [String(column.index)]: key })}
                />
              ))}
            </ul>
            {current.columnCount > current.columns.length && (
              <p className={styles.hint}>
                The header row has {current.columnCount.toLocaleString('en-US')} columns;{' '}
                {current.columns.length} are listed: the first ones, and any other that fills or could fill a
                field. Columns not listed are ignored.
              </p>
            )}
          </fieldset>

          <p className={styles.count} role="status" aria-live="polite">
            {doubled(chosen)
              ? 'The rows with problems are counted once each field has one column.'
              : blockers
                ? // Without a column for a required field every row would count as a problem.
                  'The rows with problems are counted once every required field has a column.'
                : counting || current.problemRows === null
                  ? 'Counting the rows with problems…'
                  : current.tooManyRows
                    ? 'The file has more rows than one import takes: split it into smaller files.'
                    : `${current.problemRows} of ${current.dataRows} ${current.dataRows === 1 ? 'row has' : 'rows have'} problems: the import skips them, and its report lists them.`}
          </p>

          {!counting && !blockers && current.notServiceable && (
            <NotServiceableNote report={current.notServiceable} />
          )}
          {!counting && !blockers && current.dispatchModes && current.dispatchModes.length > 0 && (
            <DispatchModesNote readings={current.dispatchModes} />
          )}

          <DuplicateReport
            kind={kind}
            report={counting ? null : current.duplicates}
            choice={duplicates}
            onChoose={onDuplicatesChange}
          />

          <div
            className={styles.tableWrap}
            role="region"
            aria-label="First 5 rows as they will be stored"
            tabIndex={0}
          >
            <table className={styles.table}>
              <caption className={styles.caption}>First 5 rows as they will be stored</caption>
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  {mapped.map((column) => (
                    <th key={column.index} scope="col">
                      {fieldLabel.get(columns[String(column.index)]!)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {current.rows.map((row) => (
                  <tr key={row.rowNumber}>
                    <th scope="row">{row.rowNumber}</th>
                    {mapped.map((column) => (
                      <td key={column.index}>{row.cells[column.index] ?? ''}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

type ColumnChoiceProps = {
  header: string;
  index: number;
  value: string | null;
  fields: ImportPreview['fields'];
  /** The field this column ties for with another column, when the headers alone cannot tell. */
  tie: string | undefined;
  describedBy: string | undefined;
  onChoose: (key: string | null) => void;
};

function ColumnChoice({ header, index, value, fields, tie, describedBy, onChoose }: ColumnChoiceProps) {
  const id = useId();
  const tieId = `${id}-tie`;
  return (
    <li className={styles.column}>
      <label className={styles.columnLabel} htmlFor={id}>
        {header || `Column ${index + 1} (no header)`}
      </label>
      <select
        id={id}
        className={styles.select}
        value={value ?? IGNORED}
        aria-describedby={[tie && tieId, describedBy].filter(Boolean).join(' ') || undefined}
        onChange={(event) => onChoose(event.target.value || null)}
      >
        <option value={IGNORED}>Ignored</option>
        {fields.map((field) => (
          <option key={field.key} value={field.key}>
            {field.label}
            {field.required ? ' (required)' : ''}
          </option>
        ))}
      </select>
      {tie && !value && (
        <p id={tieId} className={styles.tie}>
          Could be {tie}, like another column: choose which.
        </p>
      )}
    </li>
  );
}

/** How each distinct Mode Of Dispatch was understood; a part no spelling matches is flagged, never guessed. */
function DispatchModesNote({ readings }: { readings: NonNullable<ImportPreview['dispatchModes']> }) {
  return (
    <div className={styles.hint} aria-label="Mode Of Dispatch as understood">
      <p>Mode Of Dispatch, as understood:</p>
      <ul>
        {readings.slice(0, 12).map((r) => (
          <li key={r.value}>
            ‘{r.value || '(empty)'}’ ({r.rows} {r.rows === 1 ? 'row' : 'rows'}):{' '}
            {r.unknown.length > 0 ? <strong>{r.reading}</strong> : r.reading}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Rows the import takes whose e-mail or mobile cannot be served (issue 28): imported all the same, and
 * the report says why for each; a send leaves them out on that channel.
 */
function NotServiceableNote({ report }: { report: NonNullable<ImportPreview['notServiceable']> }) {
  if (report.email === 0 && report.whatsapp === 0) return null;
  const rows = (n: number) => `${n} ${n === 1 ? 'row' : 'rows'}`;
  return (
    <div className={styles.hint} aria-label="Addresses not serviceable">
      {report.email > 0 && <p>{rows(report.email)}: e-mail not serviceable</p>}
      {report.whatsapp > 0 && <p>{rows(report.whatsapp)}: mobile not serviceable</p>}
      <ul>
        {report.rows.slice(0, 5).map((row) => (
          <li key={`${row.rowNumber}-${row.channel}`}>
            Row {row.rowNumber}: {row.channel === 'email' ? 'e-mail' : 'mobile'} {row.reason}
          </li>
        ))}
      </ul>
      <p>They are imported; the report lists each, and a send leaves them out until corrected.</p>
    </div>
  );
}
