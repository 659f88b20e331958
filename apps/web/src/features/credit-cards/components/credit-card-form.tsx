import {
  creditCardBody,
  creditCardSteps,
  type CreditCard,
  type CreditCardFields,
} from '@notice-desk/contract/credit-card';
import { RecordForm, type RecordFormApi } from '../../../components/records/record-form.tsx';
import { paths } from '../../../config/paths.ts';
import { useCreateCreditCardMutation, useUpdateCreditCardMutation } from '../api/credit-cards-api.ts';

const creditCardsApi: RecordFormApi<CreditCardFields> = {
  useCreate: useCreateCreditCardMutation,
  useUpdate: useUpdateCreditCardMutation,
};

/** The fields holding a date (as text, day.month.year): each gets a date picker. */
const DATE_FIELDS: ReadonlySet<string> = new Set(['campDate', 'noticeDate']);

type CreditCardFormProps = {
  /** The record to edit; a new credit card when absent. */
  creditCard?: CreditCard;
  /** After the success toast (the route goes back to the list). */
  onSaved: () => void;
};

/** The 3-step credit-card wizard: adds a credit card, or edits one when given. */
export function CreditCardForm({ creditCard, onSaved }: CreditCardFormProps) {
  return (
    <RecordForm
      api={creditCardsApi}
      label="Credit card"
      steps={creditCardSteps}
      body={creditCardBody}
      record={creditCard}
      createdMessage="Credit Card Created Successfully."
      updatedMessage="Credit Card Updated Successfully."
      saveFailedMessage="The credit card could not be saved."
      onSaved={onSaved}
      listHref={paths.creditCards.list.getHref()}
      dateFields={DATE_FIELDS}
    />
  );
}
