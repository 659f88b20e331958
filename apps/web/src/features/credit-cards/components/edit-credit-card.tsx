import { EditRecord } from '../../../components/records/edit-record.tsx';
import { creditCardKind } from './credit-card-kind.ts';

/** The credit-card wizard prefilled with a stored credit card, once it has loaded, and its evidence bundle. */
export function EditCreditCard({ id, onSaved }: { id: string; onSaved: () => void }) {
  return <EditRecord kind={creditCardKind} id={id} onSaved={onSaved} />;
}
