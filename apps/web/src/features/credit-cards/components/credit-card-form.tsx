import toast from 'react-hot-toast';
import {
  creditCardBody,
  creditCardFields,
  creditCardSteps,
  type CreditCard,
} from '@notice-desk/contract/credit-card';
import { StepWizard, wizardValues, type WizardFieldErrors } from '../../../components/wizard/step-wizard.tsx';
import { showApiProblem } from '../../../lib/api-error.ts';
import { useCreateCreditCardMutation, useUpdateCreditCardMutation } from '../api/credit-cards-api.ts';

const fieldKeys = creditCardFields.map((field) => field.key);

type CreditCardFormProps = {
  /** The record to edit; a new credit card when absent. */
  creditCard?: CreditCard;
  /** After the success toast (the route goes back to the list). */
  onSaved: () => void;
};

/** The 3-step credit-card wizard: adds a credit card, or edits one when given. */
export function CreditCardForm({ creditCard, onSaved }: CreditCardFormProps) {
  const [createCreditCard] = useCreateCreditCardMutation();
  const [updateCreditCard] = useUpdateCreditCardMutation();

  const save = async (values: Record<string, string>): Promise<WizardFieldErrors | void> => {
    const fields = creditCardBody.parse(values);
    try {
      if (creditCard) {
        await updateCreditCard({ id: creditCard._id, fields }).unwrap();
        toast.success('Credit Card Updated Successfully.');
      } else {
        await createCreditCard(fields).unwrap();
        toast.success('Credit Card Created Successfully.');
      }
      onSaved();
    } catch (error) {
      let fieldErrors: WizardFieldErrors = {};
      showApiProblem(error, {
        fields: fieldKeys,
        onFieldErrors: (found) => {
          fieldErrors = found as WizardFieldErrors;
        },
        fallback: 'The credit card could not be saved.',
      });
      return fieldErrors;
    }
  };

  return (
    <StepWizard
      label="Credit card"
      steps={creditCardSteps}
      initialValues={creditCard && wizardValues(creditCardSteps, creditCard)}
      onSubmit={save}
    />
  );
}
