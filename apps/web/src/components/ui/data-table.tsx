import {
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactElement,
  type ReactNode,
  type RefObject,
} from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { LIST_SEARCH_MAX_LENGTH, pageCount } from '@notice-desk/contract/paging';
import { useMediaQuery } from '../../hooks/use-media-query.ts';
import { ErrorState } from './error-state.tsx';
import { Spinner } from './spinner.tsx';
import { TablePager } from './table-pager.tsx';
import styles from './data-table.module.css';

export type DataTableColumn<TRow> = {
  id: string;
  header: string;
  /** The cell's content; `rowNumber` counts from 1 across pages (the 'No.' column). */
  cell: (row: TRow, rowNumber: number) => ReactNode;
  className?: string;
  /**
   * Its place on a phone (below 640 px), where each row is a card: 'title' heads the card, 'number'
   * sits in its corner, 'actions' run along its foot, 'wide' takes a whole line (a long status). The
   * others share lines two by two. Every cell but the title and the actions shows its header's name.
   */
  card?: DataTableCardPlace;
};

export type DataTableCardPlace = 'title' | 'number' | 'wide' | 'actions';

/** Below this width every row is a card (data-table.module.css holds the same breakpoint). */
export const CARDS_QUERY = '(max-width: 639px)';

export type DataTableSelection = {
  /** Ids (from `rowId`) of the selected rows. */
  selected: ReadonlySet<string>;
  onChange: (selected: Set<string>) => void;
};

export type DataTableServerSearch = {
  text: string;
  onTextChange: (text: string) => void;
  searchedFor: string;
};

export type DataTableProps<TRow> = {
  /** The table's accessible name (a hidden caption), e.g. 'Credit cards'. */
  label: string;
  /**
   * Keep this stable (a module constant or `useMemo`): every row re-renders when it changes,
   * and a page can hold 10,000 rows.
   */
  columns: readonly DataTableColumn<TRow>[];
  /** The current page's rows, as the server answered them. */
  rows: readonly TRow[];
  rowId: (row: TRow) => string;
  page: number;
  limit: number;
  /** Rows on every page together. */
  total: number;
  pageSizes: readonly number[];
  onPageChange: (page: number) => void;
  /** A new page size; the table also calls `onPageChange(1)`. */
  onLimitChange: (limit: number) => void;
  /** Buttons above the table. When given, the Search box is not shown (spec). */
  buttons?: ReactNode;
  /** The 'Search...' box as a filter over the current page on this text (the template lists' name search). */
  searchText?: (row: TRow) => string;
  /**
   * The 'Search...' box as a filter over the whole list on the server: the text as typed, for the owner
   * to send (debounced, see useListSearch), and the search the shown rows answer, for the empty state.
   */
  serverSearch?: DataTableServerSearch;
  /** Checkboxes per row and a select-all for the rows shown. */
  selection?: DataTableSelection;
  /** The first load: no rows to show yet. */
  loading?: boolean;
  /** A refetch with the old rows still shown. */
  busy?: boolean;
  /** The rows could not be loaded: shows `errorMessage` and a Retry button calling `onRetry`. */
  failed?: boolean;
  errorMessage?: string;
  onRetry?: () => void;
  emptyMessage?: string;
  /**
   * Pages longer than this render only the rows near the viewport (the page still scrolls as a whole),
   * so a 10,000-row page renders, selects and scrolls as fast as a short one. Absent: every row renders.
   */
  virtualizeFrom?: number;
};

/**
 * Rows highlight under the pointer only on pages up to this size: on a 10,000-row page the
 * highlight following the pointer through a scroll costs about a third of the frames.
 */
const HOVER_ROWS_MAX = 1000;

/**
 * A virtualised row's height (data-table.module.css holds it there: one line, no wrapping). Rows are
 * not measured: measuring each as it scrolls in, and moving the page when one differs, costs frames.
 */
const VIRTUAL_ROW_HEIGHT = 48;

/**
 * A card's height before it is measured. Cards differ (a failure's reason, a long name), so on a phone
 * the rows are measured as they render: a phone shows a few cards at a time, not 40 rows.
 */
const VIRTUAL_CARD_HEIGHT = 150;

/** Rows rendered beyond each edge of the viewport, so Tab and a fast scroll find them ready. */
const OVERSCAN_ROWS = 12;

type ShownRow<TRow> = { row: TRow; id: string; number: number };

const cardPlaceClass: Record<DataTableCardPlace, string | undefined> = {
  title: styles.cardTitle,
  number: styles.cardNumber,
  wide: styles.cardWide,
  actions: styles.cardActions,
};

/**
 * The product's one list table: server paging with the spec's pager and page-size selector, a
 * Search... box (over the whole list on the server, or over the page), optional row selection, and
 * loading/empty/error states.
 */
export function DataTable<TRow>({
  label,
  columns,
  rows,
  rowId,
  page,
  limit,
  total,
  pageSizes,
  onPageChange,
  onLimitChange,
  buttons,
  searchText,
  serverSearch,
  selection,
  loading = false,
  busy = false,
  failed = false,
  errorMessage = 'The records could not be loaded.',
  onRetry,
  emptyMessage = 'No records found.',
  virtualizeFrom,
}: DataTableProps<TRow>) {
  const tbody = useRef<HTMLTableSectionElement>(null);
  const [pageSearch, setPageSearch] = useState('');
  const showSearch = !buttons && (searchText !== undefined || serverSearch !== undefined);
  const search = serverSearch ? serverSearch.text : pageSearch;
  const setSearch = serverSearch ? serverSearch.onTextChange : setPageSearch;
  const query = showSearch && !serverSearch ? pageSearch.trim().toLowerCase() : '';

  // Row numbers count the page as served, so a filtered row keeps its number.
  const numbered = useMemo(
    () =>
      rows.map((row, index): ShownRow<TRow> => ({
        row,
        id: rowId(row),
        number: (page - 1) * limit + index + 1,
      })),
    [rows, rowId, page, limit],
  );
  const shown = useMemo(
    () =>
      query && searchText
        ? numbered.filter(({ row }) => searchText(row).toLowerCase().includes(query))
        : numbered,
    [numbered, query, searchText],
  );

  // A page past the end (the last row of the last page was deleted) moves to the new last page.
  const lastPage = pageCount(total, limit);
  useEffect(() => {
    if (!loading && !failed && page > lastPage) onPageChange(lastPage);
  }, [loading, failed, page, lastPage, onPageChange]);

  // Row checkboxes get one stable callback, so toggling a row re-renders that row only.
  const selectionRef = useRef(selection);
  useLayoutEffect(() => {
    selectionRef.current = selection;
  });
  const toggleRow = useCallback((id: string) => {
    const current = selectionRef.current;
    if (!current) return;
    const next = new Set(current.selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    current.onChange(next);
  }, []);

  const selectedShown = selection ? shown.filter(({ id }) => selection.selected.has(id)).length : 0;
  const allShownSelected = shown.length > 0 && selectedShown === shown.length;
  const toggleAll = () => {
    if (!selection) return;
    const next = new Set(selection.selected);
    for (const { id } of shown) {
      if (allShownSelected) next.delete(id);
      else next.add(id);
    }
    selection.onChange(next);
  };

  const columnCount = columns.length + (selection ? 1 : 0);
  const virtual = virtualizeFrom !== undefined && shown.length > virtualizeFrom;
  const renderRow = (
    { row, id, number }: ShownRow<TRow>,
    index?: number,
    measure?: (element: HTMLTableRowElement | null) => void,
  ) => (
    <DataTableRow
      key={id}
      row={row}
      id={id}
      rowNumber={number}
      columns={columns}
      selectable={selection !== undefined}
      selected={selection?.selected.has(id) ?? false}
      onToggle={toggleRow}
      index={index}
      measure={measure}
    />
  );
  let body: ReactNode;
  if (failed) {
    body = (
      <StateRow columnCount={columnCount}>
        <ErrorState message={errorMessage} onRetry={onRetry} />
      </StateRow>
    );
  } else if (loading) {
    body = (
      <StateRow columnCount={columnCount}>
        <Spinner label={`Loading ${label.toLowerCase()}`} />
      </StateRow>
    );
  } else if (shown.length === 0) {
    body = (
      <StateRow columnCount={columnCount}>
        <p className="state-message">
          {serverSearch?.searchedFor ? `No records found for "${serverSearch.searchedFor}".` : emptyMessage}
        </p>
      </StateRow>
    );
  } else {
    body = virtual ? (
      <VirtualRows shown={shown} tbody={tbody} columnCount={columnCount} renderRow={renderRow} />
    ) : (
      shown.map((entry) => renderRow(entry))
    );
  }

  return (
    <div className={styles.panel}>
      <div className={styles.toolbar}>
        <label className={styles.pageSize}>
          <span aria-hidden="true">Show</span>
          <select
            className={styles.select}
            aria-label="Entries per page"
            value={limit}
            onChange={(event) => {
              onLimitChange(Number(event.target.value));
              onPageChange(1);
            }}
          >
            {pageSizes.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
          <span aria-hidden="true">entries</span>
        </label>
        {buttons ? (
          <div className={styles.buttons}>{buttons}</div>
        ) : (
          showSearch && (
            <input
              type="search"
              className={styles.search}
              placeholder="Search..."
              aria-label={`Search ${label.toLowerCase()}`}
              maxLength={LIST_SEARCH_MAX_LENGTH}
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
          )
        )}
      </div>
      {/* Focusable so keyboard users can scroll a wide table sideways. */}
      <div className={styles.scroller} role="region" aria-label={label} tabIndex={0}>
        <table
          className={[
            styles.table,
            styles.cards,
            (virtual || shown.length <= HOVER_ROWS_MAX) && styles.hoverRows,
            virtual && styles.virtualRows,
          ]
            .filter(Boolean)
            .join(' ')}
          aria-busy={loading || busy}
          // Rows not rendered still count: the header row, then every row of the page.
          aria-rowcount={virtual ? shown.length + 1 : undefined}
        >
          <caption className="visually-hidden">{label}</caption>
          <thead>
            <tr>
              {selection && (
                <th scope="col" className={styles.checkCell}>
                  {/* On a phone the header row is a bar that stays in view, the box named in words. */}
                  <label className={styles.selectAll}>
                    <input
                      type="checkbox"
                      className={styles.checkbox}
                      aria-label="Select all rows on this page"
                      checked={allShownSelected}
                      ref={(input) => {
                        if (input) input.indeterminate = selectedShown > 0 && !allShownSelected;
                      }}
                      disabled={shown.length === 0}
                      onChange={toggleAll}
                    />
                  </label>
                </th>
              )}
              {columns.map((column) => (
                <th key={column.id} scope="col" className={column.className}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody ref={tbody}>{body}</tbody>
        </table>
      </div>
      <TablePager page={page} limit={limit} total={total} label={label} onPageChange={onPageChange} />
    </div>
  );
}

type VirtualRowsProps<TRow> = {
  shown: readonly ShownRow<TRow>[];
  tbody: RefObject<HTMLTableSectionElement | null>;
  columnCount: number;
  renderRow: (
    entry: ShownRow<TRow>,
    index: number,
    measure?: (element: HTMLTableRowElement | null) => void,
  ) => ReactNode;
};

/**
 * The rows near the viewport, between two spacer rows as tall as the rows above and below them. The
 * window scrolls, as on any page.
 */
function VirtualRows<TRow>({ shown, tbody, columnCount, renderRow }: VirtualRowsProps<TRow>) {
  // Where the rows start on the page: what appears above the table (a progress bar, a summary) moves it.
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    const measure = () => {
      const top = (tbody.current?.getBoundingClientRect().top ?? 0) + window.scrollY;
      setScrollMargin((current) => (Math.abs(top - current) >= 1 ? top : current));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [tbody]);
  const cards = useMediaQuery(CARDS_QUERY);
  const virtualizer = useWindowVirtualizer({
    count: shown.length,
    estimateSize: () => (cards ? VIRTUAL_CARD_HEIGHT : VIRTUAL_ROW_HEIGHT),
    overscan: OVERSCAN_ROWS,
    scrollMargin,
    // Scrolling re-renders a few dozen rows; React batches them without forcing a synchronous commit.
    useFlushSync: false,
  });
  // Turning the phone (or resizing past the breakpoint) changes every row's height.
  useLayoutEffect(() => virtualizer.measure(), [virtualizer, cards]);
  const items = virtualizer.getVirtualItems();
  const first = items[0];
  const last = items[items.length - 1];
  const above = first ? first.start - scrollMargin : 0;
  const below = last ? virtualizer.getTotalSize() - (last.end - scrollMargin) : 0;
  return (
    <>
      {above > 0 && <SpacerRow height={above} columnCount={columnCount} />}
      {items.map((item) =>
        renderRow(shown[item.index]!, item.index, cards ? virtualizer.measureElement : undefined),
      )}
      {below > 0 && <SpacerRow height={below} columnCount={columnCount} />}
    </>
  );
}

function SpacerRow({ height, columnCount }: { height: number; columnCount: number }) {
  return (
    <tr aria-hidden="true" className={styles.spacer} style={{ height }}>
      <td colSpan={columnCount} />
    </tr>
  );
}

function StateRow({ columnCount, children }: { columnCount: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={columnCount} className={styles.stateCell}>
        {children}
      </td>
    </tr>
  );
}

type DataTableRowProps<TRow> = {
  row: TRow;
  id: string;
  rowNumber: number;
  columns: readonly DataTableColumn<TRow>[];
  selectable: boolean;
  selected: boolean;
  onToggle: (id: string) => void;
  /** On a virtualised page: the row's place in the page. */
  index?: number;
  /** On a virtualised page of cards: measures the row, whose height varies. */
  measure?: (element: HTMLTableRowElement | null) => void;
};

// Memoised and hook-free: with 10,000 rows a selection change or a search keystroke
// re-renders only the rows whose props changed.
const DataTableRow = memo(function DataTableRow<TRow>({
  row,
  id,
  rowNumber,
  columns,
  selectable,
  selected,
  onToggle,
  index,
  measure,
}: DataTableRowProps<TRow>) {
  return (
    <tr
      ref={measure}
      className={styles.row}
      aria-rowindex={index === undefined ? undefined : index + 2}
      // The virtualiser finds a measured row's place by this.
      data-index={measure ? index : undefined}
    >
      {selectable && (
        <td className={styles.checkCell}>
          <input
            type="checkbox"
            className={styles.checkbox}
            aria-label={`Select row ${rowNumber}`}
            checked={selected}
            onChange={() => onToggle(id)}
          />
        </td>
      )}
      <DataTableCells row={row} rowNumber={rowNumber} columns={columns} />
    </tr>
  );
}) as <TRow>(props: DataTableRowProps<TRow>) => ReactElement;

type DataTableCellsProps<TRow> = Pick<DataTableRowProps<TRow>, 'row' | 'rowNumber' | 'columns'>;

// A row's own cells, memoised apart from its checkbox: select-all on 10,000 rows then updates
// 10,000 checkboxes without rendering any cell content again.
const DataTableCells = memo(function DataTableCells<TRow>({
  row,
  rowNumber,
  columns,
}: DataTableCellsProps<TRow>) {
  return columns.map((column) => (
    <td
      key={column.id}
      className={
        [column.className, column.card && cardPlaceClass[column.card]].filter(Boolean).join(' ') || undefined
      }
      // A card names each value by its column's header (data-table.module.css).
      data-label={column.header}
    >
      {column.cell(row, rowNumber)}
    </td>
  ));
}) as <TRow>(props: DataTableCellsProps<TRow>) => ReactElement;
