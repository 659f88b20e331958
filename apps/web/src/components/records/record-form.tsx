import toast from 'react-hot-toast';
import { StepWizard, wizardValues, type WizardFieldErrors } from '../wizard/step-wizard.tsx';
import { showApiProblem } from '../../lib/api-error.ts';
import { draftKey, removeDraft } from '../../lib/drafts.ts';
import { selectSignedInUser } from '../../lib/session.ts';
import { useAppSelector } from '../../lib/store.ts';
import { capitalised, recordKinds, type RecordKindScreens } from './record-kinds.ts';

export type RecordFormProps<TRecord, TFields> = {
  /** Keep it stable (a module constant). */
  kind: RecordKindScreens<TRecord, TFields>;
  /** The record to edit; a new record when absent. */
  record?: { _id: string };
  /** After the success toast (the route goes back to the list). */
  onSaved: () => void;
};

/** A record's step wizard: adds a record of the kind, or edits one when given. */
export function RecordForm<TRecord, TFields>({
  kind: { type, api },
  record,
  onSaved,
}: RecordFormProps<TRecord, TFields>) {
  const { one, title, paths, steps, body, dateFields } = recordKinds[type];
  const [createRecord] = api.useCreate();
  const [updateRecord] = api.useUpdate();
  const user = useAppSelector(selectSignedInUser);
  // Per user, kind and record: a new record's draft and each edit's are kept apart.
  const keptAs = user ? draftKey(user._id, `${type}:${record?._id ?? 'new'}`) : undefined;

  const save = async (values: Record<string, string>): Promise<WizardFieldErrors | void> => {
    // The kind's contract body schema: it parses the wizard's values into the kind's fields.
    const fields = body.parse(values) as TFields;
    try {
      if (record) {
        await updateRecord({ id: record._id, fields }).unwrap();
        toast.success(`${title} Updated Successfully.`);
      } else {
        await createRecord(fields).unwrap();
        toast.success(`${title} Created Successfully.`);
      }
      if (keptAs) removeDraft(keptAs);
      onSaved();
    } catch (error) {
      let fieldErrors: WizardFieldErrors = {};
      showApiProblem(error, {
        fields: steps.flat().map((field) => field.key),
        onFieldErrors: (found) => {
          fieldErrors = found as WizardFieldErrors;
        },
        fallback: `The ${one} could not be saved.`,
      });
      return fieldErrors;
    }
  };

  return (
    <StepWizard
      label={capitalised(one)}
      steps={steps}
      initialValues={record && wizardValues(steps, record)}
      onSubmit={save}
      cancelHref={paths.list.getHref()}
      dateFields={dateFields}
      draftKey={keptAs}
    />
  );
}
