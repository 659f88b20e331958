import { useId, useRef } from 'react';
import type { EmailTemplate } from '@notice-desk/contract/templates';
import { TextField } from '../../../components/ui/text-field.tsx';
import { templateChannels } from '../utils/template-channels.ts';
import { isPlainTextTemplate } from '../utils/template-format.ts';
import { PlaceholderList } from './placeholder-list.tsx';
import { PreviewButton } from './preview-button.tsx';
import { RichTextEditor, type RichTextEditorHandle } from './rich-text-editor.tsx';
import { TemplateFormFrame, useTemplateTextForm } from './template-form.tsx';
import { TemplateLanguages } from './template-languages.tsx';
import styles from './template-editor.module.css';

/** One step: the name is shown read-only, the body is edited (as rich text, but for a subject line) and saved. */
export function EmailTemplateForm({ template, onSaved }: { template: EmailTemplate; onSaved: () => void }) {
  const plainText = isPlainTextTemplate(template);
  const editor = useRef<RichTextEditorHandle>(null);
  const bodyLabelId = useId();
  const {
    frame,
    textField: htmlField,
    error: bodyError,
    plainTextProps,
    insertIntoPlainText,
    showTextError,
    languages,
  } = useTemplateTextForm(templateChannels.email, template, onSaved);

  const insertPlaceholder = (text: string) => {
    if (plainText) insertIntoPlainText(text);
    else editor.current?.insertText(text);
  };

  return (
    <TemplateFormFrame
      {...frame}
      name={template.name}
      help={
        <>
          {!plainText && (
            <PreviewButton
              kind={template.kind}
              language={template.language}
              html={htmlField.value}
              onFieldError={showTextError}
            />
          )}
          <PlaceholderList placeholders={template.placeholders} onInsert={insertPlaceholder} />
          {/* The e-mail subject and body go in one language; the PDFs and WhatsApp texts take variants. */}
          {!template.key.startsWith('email-') && <TemplateLanguages {...languages} />}
        </>
      }
    >
      {plainText ? (
        <TextField {...plainTextProps} label="Body" />
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
