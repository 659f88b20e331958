import type { WhatsappTemplate } from '@notice-desk/contract/templates';
import { TextAreaField } from '../../../components/ui/text-area-field.tsx';
import { templateChannels } from '../utils/template-channels.ts';
import { PlaceholderList } from './placeholder-list.tsx';
import { TemplateFormFrame, useTemplateTextForm } from './template-form.tsx';
import { TemplateLanguages } from './template-languages.tsx';

type WhatsappTemplateFormProps = {
  template: WhatsappTemplate;
  /** After the success toast (the route goes back to the list). */
  onSaved: () => void;
};

/** One step: the name is shown read-only, the message text is edited and saved. */
export function WhatsappTemplateForm({ template, onSaved }: WhatsappTemplateFormProps) {
  const { frame, plainTextProps, insertIntoPlainText, languages } = useTemplateTextForm(
    templateChannels.whatsapp,
    template,
    onSaved,
  );

  return (
    <TemplateFormFrame
      {...frame}
      name={template.name}
      help={
        <>
          <PlaceholderList placeholders={template.placeholders} onInsert={insertIntoPlainText} />
          <TemplateLanguages {...languages} />
        </>
      }
    >
      <TextAreaField {...plainTextProps} label="Value" rows={10} />
    </TemplateFormFrame>
  );
}
