import type { EmailTemplate } from '@notice-desk/contract/templates';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { paths } from '../../../config/paths.ts';
import { usePagination } from '../../../hooks/use-pagination.ts';
import { useGetEmailTemplatesQuery } from '../api/templates-api.ts';
import { TemplateEditLink } from './template-edit-link.tsx';
import styles from './template-list.module.css';

/** The spec sets the default (25); the other sizes are this list's choice. */
const DEFAULT_PAGE_SIZE = 25;
const PAGE_SIZES = [10, 25, 50, 100] as const;

const templateId = (template: EmailTemplate) => template._id;
const templateName = (template: EmailTemplate) => template.name;

const columns: DataTableColumn<EmailTemplate>[] = [
  { id: 'number', header: 'No.', cell: (_template, rowNumber) => rowNumber },
  { id: 'name', header: 'Name', cell: (template) => template.name },
  {
    id: 'action',
    header: 'Action',
    className: styles.action,
    cell: (template) => (
      <TemplateEditLink name={template.name} href={paths.templates.editEmail.getHref(template._id)} />
    ),
  },
];

/** /templates/email-templates (the PDF Editor): PDF and e-mail templates, searchable by name. */
export function EmailTemplateList() {
  const { page, limit, setPage, setLimit } = usePagination(DEFAULT_PAGE_SIZE);
  const { data, isLoading, isFetching, isError, refetch } = useGetEmailTemplatesQuery({ page, limit });

  return (
    <DataTable
      label="PDF templates"
      columns={columns}
      rows={data?.items ?? []}
      rowId={templateId}
      page={page}
      limit={limit}
      total={data?.total ?? 0}
      pageSizes={PAGE_SIZES}
      onPageChange={setPage}
      onLimitChange={setLimit}
      searchText={templateName}
      loading={isLoading}
      busy={isFetching}
      failed={isError}
      errorMessage="The templates could not be loaded."
      onRetry={() => void refetch()}
      emptyMessage="No templates found."
    />
  );
}
