import toast from 'react-hot-toast';
import { StepWizard, wizardValues, type WizardFieldErrors, type WizardStep } from '../wizard/step-wizard.tsx';
import { showApiProblem } from '../../lib/api-error.ts';

type Unwrappable = { unwrap: () => Promise<unknown> };

/** The kind's RTK Query hooks that store a record: create and update. */
export type RecordFormApi<TFields> = {
  useCreate: () => readonly [(fields: TFields) => Unwrappable, ...unknown[]];
  useUpdate: () => readonly [(args: { id: string; fields: TFields }) => Unwrappable, ...unknown[]];
};

export type RecordFormProps<TFields> = {
  api: RecordFormApi<TFields>;
  /** The form's accessible name, e.g. 'Credit card'. */
  label: string;
  /** The kind's steps (the contract's step definitions). */
  steps: readonly WizardStep[];
  /** The kind's body schema: the wizard's values as the request body. */
  body: { parse: (values: Record<string, string>) => TFields };
  /** The record to edit; a new record when absent. */
  record?: { _id: string };
  createdMessage: string;
  updatedMessage: string;
  saveFailedMessage: string;
  /** After the success toast (the route goes back to the list). */
  onSaved: () => void;
  /** The kind's list, where Cancel goes. */
  listHref: string;
  /** The kind's fields that hold a date as text, given a date picker. */
  dateFields?: ReadonlySet<string>;
};

/** A record's step wizard: adds a record of the kind, or edits one when given. */
export function RecordForm<TFields>({
  api: { useCreate, useUpdate },
  label,
  steps,
  body,
  record,
  createdMessage,
  updatedMessage,
  saveFailedMessage,
  onSaved,
  listHref,
  dateFields,
}: RecordFormProps<TFields>) {
  const [createRecord] = useCreate();
  const [updateRecord] = useUpdate();

  const save = async (values: Record<string, string>): Promise<WizardFieldErrors | void> => {
    const fields = body.parse(values);
    try {
      if (record) {
        await updateRecord({ id: record._id, fields }).unwrap();
        toast.success(updatedMessage);
      } else {
        await createRecord(fields).unwrap();
        toast.success(createdMessage);
      }
      onSaved();
    } catch (error) {
      let fieldErrors: WizardFieldErrors = {};
      showApiProblem(error, {
        fields: steps.flat().map((field) => field.key),
        onFieldErrors: (found) => {
          fieldErrors = found as WizardFieldErrors;
        },
        fallback: saveFailedMessage,
      });
      return fieldErrors;
    }
  };

  return (
    <StepWizard
      label={label}
      steps={steps}
      initialValues={record && wizardValues(steps, record)}
      onSubmit={save}
      cancelHref={listHref}
      dateFields={dateFields}
    />
  );
}
