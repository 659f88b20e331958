import toast from 'react-hot-toast';
import { noticeBody, noticeFields, noticeSteps, type Notice } from '@notice-desk/contract/notice';
import { StepWizard, wizardValues, type WizardFieldErrors } from '../../../components/wizard/step-wizard.tsx';
import { showApiProblem } from '../../../lib/api-error.ts';
import { useCreateNoticeMutation, useUpdateNoticeMutation } from '../api/notices-api.ts';

const fieldKeys = noticeFields.map((field) => field.key);

type NoticeFormProps = {
  /** The record to edit; a new notice when absent. */
  notice?: Notice;
  /** After the success toast (the route goes back to the list). */
  onSaved: () => void;
};

/** The 4-step notice wizard: adds a notice, or edits one when given. */
export function NoticeForm({ notice, onSaved }: NoticeFormProps) {
  const [createNotice] = useCreateNoticeMutation();
  const [updateNotice] = useUpdateNoticeMutation();

  const save = async (values: Record<string, string>): Promise<WizardFieldErrors | void> => {
    const fields = noticeBody.parse(values);
    try {
      if (notice) {
        await updateNotice({ id: notice._id, fields }).unwrap();
        toast.success('Notice Updated Successfully.');
      } else {
        await createNotice(fields).unwrap();
        toast.success('Notice Created Successfully.');
      }
      onSaved();
    } catch (error) {
      let fieldErrors: WizardFieldErrors = {};
      showApiProblem(error, {
        fields: fieldKeys,
        onFieldErrors: (found) => {
          fieldErrors = found as WizardFieldErrors;
        },
        fallback: 'The notice could not be saved.',
      });
      return fieldErrors;
    }
  };

  return (
    <StepWizard
      label="Notice"
      steps={noticeSteps}
      initialValues={notice && wizardValues(noticeSteps, notice)}
      onSubmit={save}
    />
  );
}
