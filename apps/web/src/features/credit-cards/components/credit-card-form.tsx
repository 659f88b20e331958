import type { CreditCard } from '@notice-desk/contract/credit-card';
import { RecordForm } from '../../../components/records/record-form.tsx';
import { creditCardKind } from './credit-card-kind.ts';

/** The 3-step credit-card wizard: adds a credit card, or edits the one given. */
export function CreditCardForm({ creditCard, onSaved }: { creditCard?: CreditCard; onSaved: () => void }) {
  return <RecordForm kind={creditCardKind} record={creditCard} onSaved={onSaved} />;
}
