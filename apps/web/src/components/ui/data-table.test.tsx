import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { usePagination } from '../../hooks/use-pagination.ts';
import { DataTable, type DataTableColumn, type DataTableProps } from './data-table.tsx';

type Person = { id: string; name: string };

const people = (count: number, offset = 0): Person[] =>
  Array.from({ length: count }, (_, index) => ({
    id: `p${offset + index + 1}`,
    name: `Person ${offset + index + 1}`,
  }));

const columns: DataTableColumn<Person>[] = [
  { id: 'number', header: 'No.', cell: (_person, rowNumber) => rowNumber },
  { id: 'name', header: 'Name', cell: (person) => person.name },
];
const personId = (person: Person) => person.id;
const personName = (person: Person) => person.name;

function renderTable(props: Partial<DataTableProps<Person>> = {}) {
  const handlers = { onPageChange: vi.fn(), onLimitChange: vi.fn(), onRetry: vi.fn() };
  render(
    <DataTable
      label="People"
      columns={columns}
      rows={people(10)}
      rowId={personId}
      page={1}
      limit={10}
      total={10}
      pageSizes={[10, 25, 50]}
      searchText={personName}
      {...handlers}
      {...props}
    />,
  );
  return handlers;
}

/** The table fed by a pretend server holding `total` people, paged with the app's pagination hook. */
function PagedPeople({ total }: { total: number }) {
  const { page, limit, setPage, setLimit } = usePagination(10);
  const start = (page - 1) * limit;
  const rows = people(Math.max(0, Math.min(limit, total - start)), start);
  return (
    <DataTable
      label="People"
      columns={columns}
      rows={rows}
      rowId={personId}
      page={page}
      limit={limit}
      total={total}
      pageSizes={[10, 25, 50]}
      onPageChange={setPage}
      onLimitChange={setLimit}
      searchText={personName}
    />
  );
}

const rowBoxesIn = (table: HTMLElement) =>
  within(table).queryAllByRole('checkbox', { name: /^Select row \d+$/ }) as HTMLInputElement[];
const bodyRows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
const pageButtons = () => screen.queryAllByRole('button', { name: /^Page \d+$/ });

describe('DataTable', () => {
  it('is a named table with the given column headers and a row number counting across pages', () => {
    renderTable({ page: 3, total: 40 });
    const table = screen.getByRole('table', { name: 'People' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['No.', 'Name']);
    expect(within(bodyRows()[0]!).getAllByRole('cell')[0]!.textContent).toBe('21');
  });

  it("shows the pager text 'Showing X to Y of N entries'", () => {
    renderTable({ page: 2, total: 25, rows: people(10, 10) });
    expect(screen.getByText('Showing 11 to 20 of 25 entries')).toBeTruthy();
  });

  it('has one page per limit rows, rounded up, and at least one page', () => {
    renderTable({ total: 31 });
    expect(pageButtons().map((button) => button.textContent)).toEqual(['1', '2', '3', '4']);
    expect(screen.getByRole('button', { name: 'Page 1' }).getAttribute('aria-current')).toBe('page');
  });

  it("still has page 1 when there are no entries, says so, and reads 'Showing 0 to 0 of 0 entries'", () => {
    renderTable({ rows: [], total: 0 });
    expect(pageButtons().map((button) => button.textContent)).toEqual(['1']);
    expect(screen.getByText('No records found.')).toBeTruthy();
    expect(screen.getByText('Showing 0 to 0 of 0 entries')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Previous' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Next' })).toHaveProperty('disabled', true);
  });

  it('moves between pages with Next, Previous and the page buttons', async () => {
    const user = userEvent.setup();
    render(<PagedPeople total={35} />);

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Showing 11 to 20 of 35 entries')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Page 4' }));
    expect(screen.getByText('Showing 31 to 35 of 35 entries')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Next' })).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(screen.getByText('Showing 21 to 30 of 35 entries')).toBeTruthy();
  });

  it('goes back to page 1 when the page size changes', async () => {
    const user = userEvent.setup();
    render(<PagedPeople total={60} />);
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(screen.getByText('Showing 21 to 30 of 60 entries')).toBeTruthy();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Entries per page' }), '25');

    expect(screen.getByText('Showing 1 to 25 of 60 entries')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Page 1' }).getAttribute('aria-current')).toBe('page');
    expect(pageButtons()).toHaveLength(3);
  });

  it('tells its owner about a page-size change and the return to page 1', async () => {
    const user = userEvent.setup();
    const { onLimitChange, onPageChange } = renderTable({ page: 2, total: 40 });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Entries per page' }), '50');
    expect(onLimitChange).toHaveBeenCalledWith(50);
    expect(onPageChange).toHaveBeenCalledWith(1);
  });

  it('moves to the new last page when the current one no longer exists', () => {
    const { onPageChange } = renderTable({ page: 3, total: 20, rows: [] });
    expect(onPageChange).toHaveBeenCalledWith(2);
  });

  it("filters the page's rows on the search text, ignoring case", async () => {
    const user = userEvent.setup();
    renderTable({ rows: [...people(3), { id: 'x', name: 'Zoya Khan' }] });
    const search = screen.getByRole('searchbox', { name: 'Search people' });
    expect(search.getAttribute('placeholder')).toBe('Search...');

    await user.type(search, 'zOYA');
    expect(bodyRows().map((row) => row.textContent)).toEqual(['4Zoya Khan']);

    await user.clear(search);
    await user.type(search, 'nobody');
    expect(screen.getByText('No records found.')).toBeTruthy();
  });

  it('shows the button slot instead of the Search box when given one', () => {
    renderTable({ buttons: <button type="button">Send Notice</button> });
    expect(screen.getByRole('button', { name: 'Send Notice' })).toBeTruthy();
    expect(screen.queryByRole('searchbox')).toBeNull();
  });

  it('shows a spinner while loading and an error with Retry when loading failed', async () => {
    const user = userEvent.setup();
    const { unmount } = render(
      <DataTable
        label="People"
        columns={columns}
        rows={[]}
        rowId={personId}
        page={1}
        limit={10}
        total={0}
        pageSizes={[10]}
        onPageChange={() => {}}
        onLimitChange={() => {}}
        loading
      />,
    );
    expect(screen.getByRole('status').textContent).toBe('Loading people');
    unmount();

    const { onRetry } = renderTable({ rows: [], total: 0, failed: true, errorMessage: 'Could not load.' });
    expect(screen.getByRole('alert').textContent).toContain('Could not load.');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  describe('with selection', () => {
    function SelectablePeople({ rows, cell }: { rows: Person[]; cell: DataTableColumn<Person>['cell'] }) {
      const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
      const [stableColumns] = useState(() => [{ id: 'name', header: 'Name', cell }]);
      return (
        <>
          <output>{[...selected].sort().join(',')}</output>
          <DataTable
            label="People"
            columns={stableColumns}
            rows={rows}
            rowId={personId}
            page={1}
            limit={rows.length}
            total={rows.length}
            pageSizes={[rows.length]}
            onPageChange={() => {}}
            onLimitChange={() => {}}
            selection={{ selected, onChange: setSelected }}
          />
        </>
      );
    }

    it('selects rows one by one and all shown rows at once', async () => {
      const user = userEvent.setup();
      render(<SelectablePeople rows={people(3)} cell={personName} />);
      const selectAll = screen.getByRole('checkbox', { name: 'Select all rows on this page' });

      await user.click(screen.getByRole('checkbox', { name: 'Select row 2' }));
      expect(screen.getByRole('status').textContent).toBe('p2');
      expect((selectAll as HTMLInputElement).indeterminate).toBe(true);

      await user.click(selectAll);
      expect(screen.getByRole('status').textContent).toBe('p1,p2,p3');
      await user.click(selectAll);
      expect(screen.getByRole('status').textContent).toBe('');
    });

    it('renders no cell again when the selection changes, so a 10,000-row page stays quick', async () => {
      const user = userEvent.setup();
      const cell = vi.fn(personName);
      render(<SelectablePeople rows={people(1000)} cell={cell} />);
      expect(cell).toHaveBeenCalledTimes(1000);
      cell.mockClear();

      await user.click(screen.getByRole('checkbox', { name: 'Select row 500' }));
      expect(screen.getByRole('status').textContent).toBe('p500');
      expect((screen.getByRole('checkbox', { name: 'Select row 500' }) as HTMLInputElement).checked).toBe(
        true,
      );

      await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
      expect(screen.getAllByRole('checkbox', { checked: true })).toHaveLength(1001);

      expect(cell).not.toHaveBeenCalled();
    });

    it('renders only the rows in view of a long page when virtualised, yet counts and selects them all', async () => {
      const user = userEvent.setup();
      const rows = people(5000);
      function VirtualPeople() {
        const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
        return (
          <>
            <output>{selected.size}</output>
            <DataTable
              label="People"
              columns={columns}
              rows={rows}
              rowId={personId}
              page={1}
              limit={5000}
              total={5000}
              pageSizes={[5000]}
              onPageChange={() => {}}
              onLimitChange={() => {}}
              selection={{ selected, onChange: setSelected }}
              virtualizeFrom={100}
            />
          </>
        );
      }
      // jsdom has no ResizeObserver (the table watches the page above it with one) and no scrolling.
      vi.stubGlobal('scrollTo', () => {});
      vi.stubGlobal(
        'ResizeObserver',
        class {
          observe() {}
          disconnect() {}
        },
      );
      render(<VirtualPeople />);
      const table = screen.getByRole('table');
      expect(table.getAttribute('aria-rowcount')).toBe('5001');
      const shown = rowBoxesIn(table);
      expect(shown.length).toBeGreaterThan(0);
      expect(shown.length).toBeLessThan(100);
      expect(within(table).getAllByRole('row')[1]!.getAttribute('aria-rowindex')).toBe('2');

      await user.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
      expect(screen.getByRole('status').textContent).toBe('5000');
      expect(rowBoxesIn(table).every((box) => box.checked)).toBe(true);
      vi.unstubAllGlobals();
    });

    it('highlights rows under the pointer on ordinary pages only, not on very long ones', () => {
      const { unmount } = render(<SelectablePeople rows={people(10)} cell={personName} />);
      const short = screen.getByRole('table').className;
      unmount();
      render(<SelectablePeople rows={people(1001)} cell={personName} />);
      expect(screen.getByRole('table').className).not.toBe(short);
    });
  });
});
