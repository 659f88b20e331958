import toast from 'react-hot-toast';
import type { ApprovedTemplate, ApprovedTemplates } from '@notice-desk/contract/whatsapp-approved';
import { approvedTemplateUpdate } from '@notice-desk/contract/whatsapp-approved';
import { z } from 'zod';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useSchemaForm } from '../../../hooks/use-form.ts';
import { showApiProblem } from '../../../lib/api-error.ts';
import {
  useGetApprovedTemplatesQuery,
  useSetApprovedTemplateMutation,
} from '../api/approved-templates-api.ts';

const kindLabels = { notice: 'Notices', 'credit-card': 'Credit cards' } as const;

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
    case 'none':
      return "This template has no place for the notice page's link: add a URL button with a dynamic suffix, or one more body parameter, and have Meta approve it again.";
    default:
      return null;
  }
}

/** One kind's template: name and language at Meta, the fields for {{1}}, {{2}}…, and its status. */
function ApprovedTemplateForm({ template }: { template: ApprovedTemplate }) {
  const [save, { isLoading }] = useSetApprovedTemplateMutation();
  const { formRef, field, handleSubmit, showFieldErrors } = useSchemaForm<ApprovedTemplateValues>({
    defaultValues: {
      name: template.name ?? '',
      language: template.language ?? '',
      bodyFields: template.bodyFields.join(', '),
    },
    parts: [approvedTemplateForm],
  });
  const submit = handleSubmit(async (values) => {
    try {
      await save({
        kind: template.kind,
        body: { name: values.name, language: values.language, bodyFields: fieldList(values.bodyFields) },
      }).unwrap();
      toast.success('Updated Successfully.');
    } catch (error) {
      showApiProblem(error, {
        fields: ['name', 'language', 'bodyFields'],
        onFieldErrors: showFieldErrors,
        fallback: 'The template could not be saved.',
      });
    }
  });
  return (
    <form
      ref={formRef}
      className="panel form-stack"
      onSubmit={submit}
      noValidate
      aria-label={kindLabels[template.kind]}
    >
      <h2>{kindLabels[template.kind]}</h2>
      <TextField label="Approved template name" {...field('name')} />
      <TextField label="Language" {...field('language')} />
      <TextField
        label="Body fields, in order of {{1}}, {{2}}…"
        hint="Field keys separated by commas, such as custName, loanNo"
        {...field('bodyFields')}
      />
      <p role="status">Status at Meta: {statusText(template)}</p>
      {linkText(template) && <p>{linkText(template)}</p>}
      <button type="submit" className="button" disabled={isLoading}>
        Save
      </button>
    </form>
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
