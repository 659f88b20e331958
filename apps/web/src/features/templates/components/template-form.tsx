import { useRef, type FormEvent, type ReactNode, type RefObject } from 'react';
import { useController } from 'react-hook-form';
import type { TemplateLanguage } from '@notice-desk/contract/templates';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useSchemaForm } from '../../../hooks/use-form.ts';
import { insertAtCursor } from '../utils/insert-at-cursor.ts';
import { saveTemplate } from '../utils/save-template.ts';
import type { TemplateChannel } from '../utils/template-channels.ts';
import styles from './template-editor.module.css';

/** A stored template of either channel, with its text under the channel's field. */
type ChannelTemplate<TField extends 'html' | 'value'> = TemplateLanguage & {
  _id: string;
  key: string;
  name: string;
} & Record<TField, string>;

/**
 * The form every template channel edits its text with: one field, checked by the contract's schema,
 * saved with the spec's toast (key and name go back as they came: the server keeps them fixed); a
 * server's message about the text goes under it. Also answers the language variants' props.
 */
export function useTemplateTextForm<TField extends 'html' | 'value'>(
  channel: TemplateChannel<TField>,
  template: ChannelTemplate<TField>,
  onSaved: () => void,
) {
  const { field } = channel;
  const [updateTemplate, { isLoading: saving }] = channel.useUpdate();
  const [addVariant, { isLoading: adding }] = channel.useAddVariant();
  const { methods, formRef, handleSubmit, showFieldErrors } = useSchemaForm<Record<string, string>>({
    defaultValues: { [field]: template[field] },
    parts: [channel.schema],
  });
  const { field: textField, fieldState } = useController({ name: field, control: methods.control });
  const save = (text: string) => {
    const body = { key: template.key, name: template.name, [field]: text } as {
      key: string;
      name: string;
    } & Record<TField, string>;
    return updateTemplate({ id: template._id, body }).unwrap();
  };
  const submit = handleSubmit((values) =>
    saveTemplate(() => save(values[field] ?? ''), field, { onSaved, onFieldErrors: showFieldErrors }),
  );
  /** Shows a message under the text (a preview's answer) and moves focus to it. */
  const showTextError = (message: string) => showFieldErrors({ [field]: message });
  const languages = {
    template,
    hrefOf: channel.editHref,
    onAdd: (language: string) => addVariant({ id: template._id, language }).unwrap(),
    adding,
  };
  /** Where the cursor was in the plain text control, for a placeholder to go in there. */
  const cursorRef = useRef<HTMLInputElement | HTMLTextAreaElement | null>(null);
  /** The props of a plain text control (TextField or TextAreaField) editing the text. */
  const plainTextProps = {
    ref: (element: HTMLInputElement | HTMLTextAreaElement | null) => {
      cursorRef.current = element;
      textField.ref(element);
    },
    name: field,
    value: textField.value,
    error: fieldState.error?.message,
    onChange: textField.onChange,
    onBlur: textField.onBlur,
  };
  /** Puts a placeholder into the plain text control where the cursor is. */
  const insertIntoPlainText = (text: string) => {
    if (cursorRef.current) textField.onChange(insertAtCursor(cursorRef.current, text));
  };
  /** The frame's form: its element, its submit and whether a save is under way. */
  const frame = { formRef, onSubmit: submit, saving };
  return {
    frame,
    textField,
    error: fieldState.error?.message,
    plainTextProps,
    insertIntoPlainText,
    showTextError,
    languages,
  };
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
