import type { SmsTemplate, SmsTemplates } from '@notice-desk/contract/sms-templates';
import { smsTemplateUpdate, type SmsTemplateUpdate } from '@notice-desk/contract/sms-templates';
import { TextAreaField } from '../../../components/ui/text-area-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useGetSmsTemplatesQuery, useSetSmsTemplateMutation } from '../api/sms-templates-api.ts';
import { KindTemplateForm, kindLabels } from './kind-template-form.tsx';

const viaNotes: Record<SmsTemplates['via'], string> = {
  msg91: 'SMS go by MSG91 on these DLT templates.',
  outbox: 'SMS is not configured (MSG91_AUTH_KEY): messages are written to the outbox.',
};

/** "2 segments, GSM-7" for the longest the SMS can be. */
function lengthText({ length }: SmsTemplate): string {
  const segments = `${length.segments} ${length.segments === 1 ? 'segment' : 'segments'}`;
  return `At most ${length.characters} characters with every slot full (30 each): ${segments}, ${
    length.unicode ? 'Unicode (UCS-2, 70 characters a segment)' : 'GSM-7 (160 characters a segment)'
  }.`;
}

/** One kind's DLT template: its id, the registered text, and the SMS text with a placeholder per slot. */
function SmsTemplateForm({ template }: { template: SmsTemplate }) {
  const [save, { isLoading }] = useSetSmsTemplateMutation();
  return (
    <KindTemplateForm<SmsTemplateUpdate>
      title={`${kindLabels[template.kind]} SMS`}
      defaultValues={{
        dltTemplateId: template.dltTemplateId ?? '',
        registeredText: template.registeredText,
        text: template.text,
      }}
      schema={smsTemplateUpdate}
      save={(values) => save({ kind: template.kind, body: values }).unwrap()}
      failure="The DLT template could not be saved."
      saving={isLoading}
    >
      {(field) => (
        <>
          <TextField label="DLT template id" {...field('dltTemplateId')} />
          <TextAreaField
            label="Registered text, a {#var#} for each variable"
            rows={3}
            {...field('registeredText')}
          />
          <TextAreaField
            label="SMS text: the registered text with a placeholder where each {#var#} is"
            rows={3}
            {...field('text')}
          />
          <p>
            Placeholders: the record&apos;s fields (such as {'{{loanNo}}'}), {'{{noticeLink}}'} for the notice
            page&apos;s address, or {'{{noticeCode}}'} after the address registered in the text. Each slot
            takes at most 30 characters.
          </p>
          {template.dltTemplateId && (
            <>
              <p>Slots: {template.slotFields.map((f, i) => `${i + 1}: {{${f}}}`).join(', ') || 'none'}</p>
              <p role="status">{lengthText(template)}</p>
            </>
          )}
        </>
      )}
    </KindTemplateForm>
  );
}

/** The DLT templates SMS go on, one per record kind (ADMIN only, like the templates screen). */
export function SmsTemplateSettings() {
  const { data } = useGetSmsTemplatesQuery();
  if (!data) return null;
  return (
    <section aria-label="SMS DLT templates" className="form-stack">
      <p>
        {viaNotes[data.via]} Sender header: {data.sender ?? 'not set'}; DLT entity id:{' '}
        {data.entityId ?? 'not set'}.
      </p>
      {data.items.map((template) => (
        <SmsTemplateForm key={`${template.kind}:${template.updatedAt ?? ''}`} template={template} />
      ))}
    </section>
  );
}
