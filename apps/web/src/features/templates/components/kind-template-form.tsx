import type { ReactNode } from 'react';
import toast from 'react-hot-toast';
import type { FieldValues, Path } from 'react-hook-form';
import type { z } from 'zod';
import type { CampaignType } from '@notice-desk/contract/campaigns';
import { useSchemaForm } from '../../../hooks/use-form.ts';
import { showApiProblem } from '../../../lib/api-error.ts';

/** How the templates screen names each record kind's template. */
export const kindLabels: Record<CampaignType, string> = { notice: 'Notices', 'credit-card': 'Credit cards' };

type FieldProps<TValues extends FieldValues> = ReturnType<typeof useSchemaForm<TValues>>['field'];

type KindTemplateFormProps<TValues extends FieldValues> = {
  /** The form's heading and accessible name. */
  title: string;
  /** The template's values now; a server's message about one of them shows under its field. */
  defaultValues: TValues;
  /** The contract's check of the values. */
  schema: z.ZodType;
  save: (values: TValues) => Promise<unknown>;
  /** The error toast when the server says nothing. */
  failure: string;
  saving: boolean;
  /** The fields, given the props of each (`field(name)`), and what the form says about the template. */
  children: (field: FieldProps<TValues>) => ReactNode;
};

/**
 * One record kind's template a channel sends with (the SMS DLT template, the approved WhatsApp
 * template): its fields, then Save, saved with the spec's success toast.
 */
export function KindTemplateForm<TValues extends FieldValues>({
  title,
  defaultValues,
  schema,
  save,
  failure,
  saving,
  children,
}: KindTemplateFormProps<TValues>) {
  const { formRef, field, handleSubmit, showFieldErrors } = useSchemaForm<TValues>({
    defaultValues,
    parts: [schema],
  });
  const submit = handleSubmit(async (values) => {
    try {
      await save(values);
      toast.success('Updated Successfully.');
    } catch (error) {
      showApiProblem(error, {
        fields: Object.keys(defaultValues) as Path<TValues>[],
        onFieldErrors: showFieldErrors,
        fallback: failure,
      });
    }
  });
  return (
    <form ref={formRef} className="panel form-stack" onSubmit={submit} noValidate aria-label={title}>
      <h2>{title}</h2>
      {children(field)}
      <button type="submit" className="button" disabled={saving}>
        Save
      </button>
    </form>
  );
}
