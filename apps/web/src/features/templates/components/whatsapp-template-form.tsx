import { useRef } from 'react';
import { whatsappTemplateUpdate, type WhatsappTemplate } from '@notice-desk/contract/templates';
import { TextAreaField } from '../../../components/ui/text-area-field.tsx';
import { paths } from '../../../config/paths.ts';
import {
  useAddWhatsappTemplateVariantMutation,
  useUpdateWhatsappTemplateMutation,
} from '../api/templates-api.ts';
import { insertAtCursor } from '../utils/insert-at-cursor.ts';
import { PlaceholderList } from './placeholder-list.tsx';
import { TemplateFormFrame, useTemplateTextForm } from './template-form.tsx';
import { TemplateLanguages } from './template-languages.tsx';

const valueSchema = whatsappTemplateUpdate.pick({ value: true });

type WhatsappTemplateFormProps = {
  template: WhatsappTemplate;
  /** After the success toast (the route goes back to the list). */
  onSaved: () => void;
};

/** One step: the name is shown read-only, the message text is edited and saved. */
export function WhatsappTemplateForm({ template, onSaved }: WhatsappTemplateFormProps) {
  const [updateTemplate, { isLoading }] = useUpdateWhatsappTemplateMutation();
  const [addVariant, { isLoading: addingVariant }] = useAddWhatsappTemplateVariantMutation();
  const valueRef = useRef<HTMLTextAreaElement>(null);
  // The server keeps key and name fixed; they go back as they came (spec: merged with existing).
  const { formRef, submit, textField, error } = useTemplateTextForm({
    field: 'value',
    text: template.value,
    schema: valueSchema,
    save: (value) =>
      updateTemplate({ id: template._id, body: { key: template.key, name: template.name, value } }).unwrap(),
    onSaved,
  });

  const insertPlaceholder = (text: string) => {
    if (valueRef.current) textField.onChange(insertAtCursor(valueRef.current, text));
  };

  return (
    <TemplateFormFrame
      formRef={formRef}
      onSubmit={submit}
      name={template.name}
      saving={isLoading}
      help={
        <>
          <PlaceholderList placeholders={template.placeholders} onInsert={insertPlaceholder} />
          <TemplateLanguages
            template={template}
            hrefOf={paths.templates.editWhatsapp.getHref}
            onAdd={(language) => addVariant({ id: template._id, language }).unwrap()}
            adding={addingVariant}
          />
        </>
      }
    >
      <TextAreaField
        ref={(element) => {
          valueRef.current = element;
          textField.ref(element);
        }}
        label="Value"
        name="value"
        rows={10}
        value={textField.value}
        error={error}
        onChange={textField.onChange}
        onBlur={textField.onBlur}
      />
    </TemplateFormFrame>
  );
}
