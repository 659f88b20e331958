import { useRef } from 'react';
import { useController } from 'react-hook-form';
import { whatsappTemplateUpdate, type WhatsappTemplate } from '@notice-desk/contract/templates';
import { TextAreaField } from '../../../components/ui/text-area-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useSchemaForm } from '../../../hooks/use-form.ts';
import { paths } from '../../../config/paths.ts';
import {
  useAddWhatsappTemplateVariantMutation,
  useUpdateWhatsappTemplateMutation,
} from '../api/templates-api.ts';
import { insertAtCursor } from '../utils/insert-at-cursor.ts';
import { saveTemplate } from '../utils/save-template.ts';
import { PlaceholderList } from './placeholder-list.tsx';
import { TemplateLanguages } from './template-languages.tsx';
import styles from './template-editor.module.css';

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
  const { methods, formRef, handleSubmit, showFieldErrors } = useSchemaForm({
    defaultValues: { value: template.value },
    parts: [valueSchema],
  });
  const { field: valueField, fieldState } = useController({ name: 'value', control: methods.control });

  // The server keeps key and name fixed; they go back as they came (spec: merged with existing).
  const submit = handleSubmit(({ value }) =>
    saveTemplate(
      () =>
        updateTemplate({
          id: template._id,
          body: { key: template.key, name: template.name, value },
        }).unwrap(),
      'value',
      { onSaved, onFieldErrors: showFieldErrors },
    ),
  );

  const insertPlaceholder = (text: string) => {
    if (valueRef.current) valueField.onChange(insertAtCursor(valueRef.current, text));
  };

  return (
    <div className={styles.layout}>
      <form ref={formRef} className="panel form-stack" onSubmit={submit} noValidate>
        <TextField label="Name" name="name" value={template.name} readOnly />
        <TextAreaField
          ref={(element) => {
            valueRef.current = element;
            valueField.ref(element);
          }}
          label="Value"
          name="value"
          rows={10}
          value={valueField.value}
          error={fieldState.error?.message}
          onChange={valueField.onChange}
          onBlur={valueField.onBlur}
        />
        <div>
          <button type="submit" className="button button-primary" disabled={isLoading}>
            Save
          </button>
        </div>
      </form>
      <aside className={`panel ${styles.aside}`} aria-label="Template help">
        <PlaceholderList placeholders={template.placeholders} onInsert={insertPlaceholder} />
        <TemplateLanguages
          template={template}
          hrefOf={paths.templates.editWhatsapp.getHref}
          onAdd={(language) => addVariant({ id: template._id, language }).unwrap()}
          adding={addingVariant}
        />
      </aside>
    </div>
  );
}
