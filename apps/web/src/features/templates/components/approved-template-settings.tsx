import type { ApprovedTemplate, ApprovedTemplates } from '@notice-desk/contract/whatsapp-approved';
import { approvedTemplateUpdate } from '@notice-desk/contract/whatsapp-approved';
import { z } from 'zod';
import { TextField } from '../../../components/ui/text-field.tsx';
import {
  useGetApprovedTemplatesQuery,
  useSetApprovedTemplateMutation,
} from '../api/approved-templates-api.ts';
import { KindTemplateForm, kindLabels } from './kind-template-form.tsx';

const modeNotes: Record<ApprovedTemplates['mode'], string> = {
  template: 'WhatsApp notices go as these approved templates, the notice PDF as the header document.',
  session:
    'WHATSAPP_MODE=session: notices go as free-form documents, which WhatsApp refuses outside the 24-hour window.',
  outbox: 'WhatsApp is not configured: messages are written to the outbox.',
};

/** "custName, loanNo" as the field list it names, in order. */
const fieldList = (text: string) =>
  text
    .split(',')
    .map((field) => field.trim())
    .filter(Boolean);

type ApprovedTemplateValues = { name: string; language: string; bodyFields: string };

// The form's values checked as the update they become.
const approvedTemplateForm = z.preprocess(
  (values) => ({
    ...(values as ApprovedTemplateValues),
    bodyFields: fieldList((values as ApprovedTemplateValues).bodyFields),
  }),
  approvedTemplateUpdate,
);

function statusText(template: ApprovedTemplate): string {
  const { state, reason } = template.status;
  return reason ? `${state}: ${reason}` : state;
}

/** Where this template's messages carry the notice page's link (issue 29), or why they cannot. */
function linkText(template: ApprovedTemplate): string | null {
  switch (template.linkBy) {
    case 'button':
      return "The notice page's link goes in the template's URL button, as its dynamic suffix.";
    case 'body':
      return `The notice page's link goes in the last body parameter, {{${template.bodyFields.length + 1}}}: the template has no URL button.`;
    case 'button and body':
      return `The notice page's link goes in the template's URL button, as its dynamic suffix, and its whole address in the last body parameter, {{${template.bodyFields.length + 1}}}.`;
    case 'none':
      return "This template has no place for the notice page's link: add a URL button with a dynamic suffix, or one more body parameter, and have Meta approve it again.";
    default:
      return null;
  }
}

/** One kind's template: name and language at Meta, the fields for {{1}}, {{2}}…, and its status. */
function ApprovedTemplateForm({ template }: { template: ApprovedTemplate }) {
  const [save, { isLoading }] = useSetApprovedTemplateMutation();
  return (
    <KindTemplateForm<ApprovedTemplateValues>
      title={kindLabels[template.kind]}
      defaultValues={{
        name: template.name ?? '',
        language: template.language ?? '',
        bodyFields: template.bodyFields.join(', '),
      }}
      schema={approvedTemplateForm}
      save={(values) =>
        save({
          kind: template.kind,
          body: { name: values.name, language: values.language, bodyFields: fieldList(values.bodyFields) },
        }).unwrap()
      }
      failure="The template could not be saved."
      saving={isLoading}
    >
      {(field) => (
        <>
          <TextField label="Approved template name" {...field('name')} />
          <TextField label="Language" {...field('language')} />
          <TextField
            label="Body fields, in order of {{1}}, {{2}}…"
            hint="Field keys separated by commas, such as custName, loanNo"
            {...field('bodyFields')}
          />
          <p role="status">Status at Meta: {statusText(template)}</p>
          {linkText(template) && <p>{linkText(template)}</p>}
        </>
      )}
    </KindTemplateForm>
  );
}

/** The WhatsApp templates screen's approved templates, one per record kind (ADMIN only, like the screen). */
export function ApprovedTemplateSettings() {
  const { data } = useGetApprovedTemplatesQuery();
  if (!data) return null;
  return (
    <section aria-label="Approved WhatsApp templates" className="form-stack">
      <p>{modeNotes[data.mode]}</p>
      {data.items.map((template) => (
        <ApprovedTemplateForm
          key={`${template.kind}:${template.name ?? ''}:${template.language ?? ''}:${template.bodyFields.join(',')}`}
          template={template}
        />
      ))}
    </section>
  );
}
