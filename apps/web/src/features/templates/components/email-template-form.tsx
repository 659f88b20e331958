import { useId, useRef } from 'react';
import { emailTemplateUpdate, type EmailTemplate } from '@notice-desk/contract/templates';
import { TextField } from '../../../components/ui/text-field.tsx';
import { paths } from '../../../config/paths.ts';
import { useAddEmailTemplateVariantMutation, useUpdateEmailTemplateMutation } from '../api/templates-api.ts';
import { insertAtCursor } from '../utils/insert-at-cursor.ts';
import { isPlainTextTemplate } from '../utils/template-format.ts';
import { PlaceholderList } from './placeholder-list.tsx';
import { PreviewButton } from './preview-button.tsx';
import { RichTextEditor, type RichTextEditorHandle } from './rich-text-editor.tsx';
import { TemplateFormFrame, useTemplateTextForm } from './template-form.tsx';
import { TemplateLanguages } from './template-languages.tsx';
import styles from './template-editor.module.css';

const htmlSchema = emailTemplateUpdate.pick({ html: true });

/** One step: the name is shown read-only, the body is edited (as rich text, but for a subject line) and saved. */
export function EmailTemplateForm({ template, onSaved }: { template: EmailTemplate; onSaved: () => void }) {
  const [updateTemplate, { isLoading }] = useUpdateEmailTemplateMutation();
  const [addVariant, { isLoading: addingVariant }] = useAddEmailTemplateVariantMutation();
  const plainText = isPlainTextTemplate(template);
  const editor = useRef<RichTextEditorHandle>(null);
  const subjectRef = useRef<HTMLInputElement>(null);
  const bodyLabelId = useId();
  // The server keeps key and name fixed; they go back as they came.
  const {
    formRef,
    submit,
    textField: htmlField,
    error: bodyError,
    showTextError,
  } = useTemplateTextForm({
    field: 'html',
    text: template.html,
    schema: htmlSchema,
    save: (html) =>
      updateTemplate({ id: template._id, body: { key: template.key, name: template.name, html } }).unwrap(),
    onSaved,
  });

  const insertPlaceholder = (text: string) => {
    if (!plainText) editor.current?.insertText(text);
    else if (subjectRef.current) htmlField.onChange(insertAtCursor(subjectRef.current, text));
  };

  return (
    <TemplateFormFrame
      formRef={formRef}
      onSubmit={submit}
      name={template.name}
      saving={isLoading}
      help={
        <>
          {!plainText && (
            <PreviewButton kind={template.kind} html={htmlField.value} onFieldError={showTextError} />
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
        </>
      }
    >
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
    </TemplateFormFrame>
  );
}
