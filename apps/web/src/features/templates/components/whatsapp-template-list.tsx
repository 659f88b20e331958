import type { WhatsappTemplate } from '@notice-desk/contract/templates';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { paths } from '../../../config/paths.ts';
import { usePagination } from '../../../hooks/use-pagination.ts';
import { useGetWhatsappTemplatesQuery } from '../api/templates-api.ts';
import { TemplateEditLink } from './template-edit-link.tsx';
import styles from './template-list.module.css';

/** The spec sets the default (50); the other sizes are this list's choice. */
const DEFAULT_PAGE_SIZE = 50;
const PAGE_SIZES = [10, 25, 50, 100] as const;

const templateId = (template: WhatsappTemplate) => template._id;
const templateName = (template: WhatsappTemplate) => template.name;

const columns: DataTableColumn<WhatsappTemplate>[] = [
  { id: 'number', header: 'No.', cell: (_template, rowNumber) => rowNumber },
  { id: 'name', header: 'Name', cell: (template) => template.name },
  {
    id: 'value',
    header: 'Value',
    cell: (template) => <span className={styles.value}>{template.value}</span>,
  },
  {
    id: 'action',
    header: 'Action',
    className: styles.action,
    cell: (template) => (
      <TemplateEditLink name={template.name} href={paths.templates.editWhatsapp.getHref(template._id)} />
    ),
  },
];

/** /templates/whatsapp-templates: the WhatsApp message templates, searchable by name. */
export function WhatsappTemplateList() {
  const { page, limit, setPage, setLimit } = usePagination(DEFAULT_PAGE_SIZE);
  const { data, isLoading, isFetching, isError, refetch } = useGetWhatsappTemplatesQuery({ page, limit });

  return (
    <DataTable
      label="Whatsapp templates"
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
