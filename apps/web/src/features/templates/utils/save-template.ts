import toast from 'react-hot-toast';
import { showApiProblem } from '../../../lib/api-error.ts';

/**
 * Saves a template's text the same way from every template form: the spec's success toast, then
 * onSaved; a message about the text under its field, anything else as an error toast.
 */
export async function saveTemplate<TField extends string>(
  save: () => Promise<unknown>,
  field: TField,
  {
    onSaved,
    onFieldErrors,
  }: { onSaved: () => void; onFieldErrors: (errors: Partial<Record<TField, string>>) => void },
): Promise<void> {
  try {
    await save();
    toast.success('Updated Successfully.');
    onSaved();
  } catch (error) {
    showApiProblem(error, { fields: [field], onFieldErrors, fallback: 'The template could not be saved.' });
  }
}
