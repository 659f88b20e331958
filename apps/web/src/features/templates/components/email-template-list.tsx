import { paths } from '../../../config/paths.ts';
import { useGetEmailTemplatesQuery } from '../api/templates-api.ts';
import { LegalBasisSettings } from './legal-basis-settings.tsx';
import { TemplateList } from './template-list.tsx';

/** The spec sets the default (25). */
const DEFAULT_PAGE_SIZE = 25;

const editHref = (id: string) => paths.templates.editEmail.getHref(id);

/**
 * /templates/email-templates (the PDF Editor): PDF and e-mail templates, searchable by name, and the
 * legal basis each kind's notices are served under.
 */
export function EmailTemplateList() {
  return (
    <>
      <TemplateList
        useTemplates={useGetEmailTemplatesQuery}
        label="PDF templates"
        defaultPageSize={DEFAULT_PAGE_SIZE}
        editHref={editHref}
      />
      <LegalBasisSettings />
    </>
  );
}
