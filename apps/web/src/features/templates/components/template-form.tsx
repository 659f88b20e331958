import type { FormEvent, ReactNode, RefObject } from 'react';
import { useController } from 'react-hook-form';
import type { z } from 'zod';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useSchemaForm } from '../../../hooks/use-form.ts';
import { saveTemplate } from '../utils/save-template.ts';
import styles from './template-editor.module.css';

type TemplateTextFormOptions = {
  /** The one field the form edits: an e-mail template's 'html', a WhatsApp template's 'value'. */
  field: 'html' | 'value';
  /** The stored text, where the form starts. */
  text: string;
  /** The channel's update schema, picked to the field. */
  schema: z.ZodType;
  /** Stores the edited text (the channel's update, with key and name as they came). */
  save: (text: string) => Promise<unknown>;
  onSaved: () => void;
};

/**
 * The form every template channel edits its text with: one field, checked by the contract's schema,
 * saved with the spec's toast; a server's message about the text goes under it.
 */
export function useTemplateTextForm({ field, text, schema, save, onSaved }: TemplateTextFormOptions) {
  const { methods, formRef, handleSubmit, showFieldErrors } = useSchemaForm<Record<string, string>>({
    defaultValues: { [field]: text },
    parts: [schema],
  });
  const { field: textField, fieldState } = useController({ name: field, control: methods.control });
  const submit = handleSubmit((values) =>
    saveTemplate(() => save(values[field] ?? ''), field, { onSaved, onFieldErrors: showFieldErrors }),
  );
  /** Shows a message under the text (a preview's answer) and moves focus to it. */
  const showTextError = (message: string) => showFieldErrors({ [field]: message });
  return { formRef, submit, textField, error: fieldState.error?.message, showTextError };
}

type TemplateFormFrameProps = {
  formRef: RefObject<HTMLFormElement | null>;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** The template's name, shown read-only: the server keeps it fixed. */
  name: string;
  saving: boolean;
  /** The text's editor. */
  children: ReactNode;
  /** Beside the form: the placeholders to insert, a preview, the language variants. */
  help: ReactNode;
};

/** One step: the name shown read-only, the text edited and saved, help beside it. */
export function TemplateFormFrame({
  formRef,
  onSubmit,
  name,
  saving,
  children,
  help,
}: TemplateFormFrameProps) {
  return (
    <div className={styles.layout}>
      <form ref={formRef} className="panel form-stack" onSubmit={onSubmit} noValidate>
        <TextField label="Name" name="name" value={name} readOnly />
        {children}
        <div>
          <button type="submit" className="button button-primary" disabled={saving}>
            Save
          </button>
        </div>
      </form>
      <aside className={`panel ${styles.aside}`} aria-label="Template help">
        {help}
      </aside>
    </div>
  );
}
