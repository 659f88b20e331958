import { useMemo } from 'react';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { pagedTableProps, type PagedQuery } from '../../../components/ui/table-query.ts';
import { usePagination } from '../../../hooks/use-pagination.ts';
import { TemplateEditLink } from './template-edit-link.tsx';
import styles from './template-list.module.css';

const PAGE_SIZES = [10, 25, 50, 100] as const;

type StoredTemplate = { _id: string; name: string };

/** No columns of the kind's own: a module constant, so the table's columns stay stable. */
const NO_COLUMNS: readonly never[] = [];

const templateName = (template: StoredTemplate) => template.name;

type TemplateListProps<TTemplate extends StoredTemplate> = {
  /** The kind's RTK Query list hook. */
  useTemplates: (args: { page: number; limit: number }) => PagedQuery<TTemplate>;
  /** The table's accessible name, e.g. 'PDF templates'. */
  label: string;
  /** The spec's default page size for this kind; the other sizes are this list's choice. */
  defaultPageSize: number;
  /** The kind's own columns, between 'Name' and 'Action'. Keep them stable (a module constant). */
  columns?: readonly DataTableColumn<TTemplate>[];
  /** Keep it stable (a module function). */
  editHref: (id: string) => string;
};

/** A template list of one kind, searchable by name, with an edit link per template. */
export function TemplateList<TTemplate extends StoredTemplate>({
  useTemplates,
  label,
  defaultPageSize,
  columns: templateColumns = NO_COLUMNS,
  editHref,
}: TemplateListProps<TTemplate>) {
  const paging = usePagination(defaultPageSize);
  const query = useTemplates({ page: paging.page, limit: paging.limit });

  const columns = useMemo<DataTableColumn<TTemplate>[]>(
    () => [
      { id: 'number', header: 'No.', cell: (_template, rowNumber) => rowNumber },
      { id: 'name', header: 'Name', cell: (template) => template.name },
      ...templateColumns,
      {
        id: 'action',
        header: 'Action',
        className: styles.action,
        cell: (template) => <TemplateEditLink name={template.name} href={editHref(template._id)} />,
      },
    ],
    [templateColumns, editHref],
  );

  return (
    <DataTable
      label={label}
      columns={columns}
      {...pagedTableProps(query, paging, PAGE_SIZES)}
      searchText={templateName}
      errorMessage="The templates could not be loaded."
      emptyMessage="No templates found."
    />
  );
}
