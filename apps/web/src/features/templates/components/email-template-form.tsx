import { useId, useRef } from 'react';
import { useController } from 'react-hook-form';
import { emailTemplateUpdate, type EmailTemplate } from '@notice-desk/contract/templates';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useSchemaForm } from '../../../hooks/use-form.ts';
import { paths } from '../../../config/paths.ts';
import { useAddEmailTemplateVariantMutation, useUpdateEmailTemplateMutation } from '../api/templates-api.ts';
import { insertAtCursor } from '../utils/insert-at-cursor.ts';
import { saveTemplate } from '../utils/save-template.ts';
import { isPlainTextTemplate } from '../utils/template-format.ts';
import { PlaceholderList } from './placeholder-list.tsx';
import { PreviewButton } from './preview-button.tsx';
import { RichTextEditor, type RichTextEditorHandle } from './rich-text-editor.tsx';
import { TemplateLanguages } from './template-languages.tsx';
import styles from './template-editor.module.css';

const htmlSchema = emailTemplateUpdate.pick({ html: true });

type EmailTemplateFormProps = {
  template: EmailTemplate;
  /** After the success toast (the route goes back to the list). */
  onSaved: () => void;
};

/** One step: the name is shown read-only, the body is edited (as rich text, but for a subject line) and saved. */
export function EmailTemplateForm({ template, onSaved }: EmailTemplateFormProps) {
  const [updateTemplate, { isLoading }] = useUpdateEmailTemplateMutation();
  const [addVariant, { isLoading: addingVariant }] = useAddEmailTemplateVariantMutation();
  const plainText = isPlainTextTemplate(template);
  const editor = useRef<RichTextEditorHandle>(null);
  const subjectRef = useRef<HTMLInputElement>(null);
  const bodyLabelId = useId();
  const { methods, formRef, handleSubmit, showFieldErrors } = useSchemaForm({
    defaultValues: { html: template.html },
    parts: [htmlSchema],
  });
  const { field: htmlField, fieldState } = useController({ name: 'html', control: methods.control });
  const bodyError = fieldState.error?.message;

  // The server keeps key and name fixed; they go back as they came.
  const submit = handleSubmit(({ html }) =>
    saveTemplate(
      () =>
        updateTemplate({ id: template._id, body: { key: template.key, name: template.name, html } }).unwrap(),
      'html',
      { onSaved, onFieldErrors: showFieldErrors },
    ),
  );

  const insertPlaceholder = (text: string) => {
    if (!plainText) editor.current?.insertText(text);
    else if (subjectRef.current) htmlField.onChange(insertAtCursor(subjectRef.current, text));
  };

  return (
    <div className={styles.layout}>
      <form ref={formRef} className="panel form-stack" onSubmit={submit} noValidate>
        <TextField label="Name" name="name" value={template.name} readOnly />
        {plainText ? (
          <TextField
            ref={(element) => {
              subjectRef.current = element;
              htmlField.ref(element);
            }}
            label="Body"
            name="html"
            value={htmlField.value}
            error={bodyError}
            onChange={htmlField.onChange}
            onBlur={htmlField.onBlur}
          />
        ) : (
          <div className={styles.field} role="group" aria-labelledby={bodyLabelId}>
            <span id={bodyLabelId} className={styles.label}>
              Body
            </span>
            <div className={styles.editorFrame} data-invalid={bodyError ? true : undefined}>
              <RichTextEditor
                ref={editor}
                label="Body"
                initialValue={template.html}
                onChange={htmlField.onChange}
              />
            </div>
            {bodyError && (
              <p className={styles.error} role="alert">
                {bodyError}
              </p>
            )}
          </div>
        )}
        <div>
          <button type="submit" className="button button-primary" disabled={isLoading}>
            Save
          </button>
        </div>
      </form>
      <aside className={`panel ${styles.aside}`} aria-label="Template help">
        {!plainText && (
          <PreviewButton
            kind={template.kind}
            html={htmlField.value}
            onFieldError={(message) => showFieldErrors({ html: message })}
          />
        )}
        <PlaceholderList placeholders={template.placeholders} onInsert={insertPlaceholder} />
        {/* The e-mail subject and body go in one language; the PDFs and WhatsApp texts take variants. */}
        {!template.key.startsWith('email-') && (
          <TemplateLanguages
            template={template}
            hrefOf={paths.templates.editEmail.getHref}
            onAdd={(language) => addVariant({ id: template._id, language }).unwrap()}
            adding={addingVariant}
          />
        )}
      </aside>
    </div>
  );
}
