import type { WhatsappTemplate } from '@notice-desk/contract/templates';
import type { DataTableColumn } from '../../../components/ui/data-table.tsx';
import { paths } from '../../../config/paths.ts';
import { useGetWhatsappTemplatesQuery } from '../api/templates-api.ts';
import { ApprovedTemplateSettings } from './approved-template-settings.tsx';
import { SmsTemplateSettings } from './sms-template-settings.tsx';
import { TemplateList } from './template-list.tsx';
import styles from './template-list.module.css';

/** The spec sets the default (50). */
const DEFAULT_PAGE_SIZE = 50;

const columns: DataTableColumn<WhatsappTemplate>[] = [
  {
    id: 'value',
    header: 'Value',
    cell: (template) => <span className={styles.value}>{template.value}</span>,
  },
];

const editHref = (id: string) => paths.templates.editWhatsapp.getHref(id);

/** /templates/whatsapp-templates: the WhatsApp message templates, searchable by name. */
export function WhatsappTemplateList() {
  return (
    <>
      <TemplateList
        useTemplates={useGetWhatsappTemplatesQuery}
        label="Whatsapp templates"
        defaultPageSize={DEFAULT_PAGE_SIZE}
        columns={columns}
        editHref={editHref}
      />
      <ApprovedTemplateSettings />
      <SmsTemplateSettings />
    </>
  );
}
