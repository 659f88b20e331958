import { Link } from 'react-router';
import { evidencePaths } from '@notice-desk/contract/evidence';
import { DownloadEvidenceButton } from '../../../components/deliveries/download-evidence-button.tsx';
import { ErrorState } from '../../../components/ui/error-state.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { isMissingRecord } from '../../../lib/api-error.ts';
import { useGetCreditCardQuery } from '../api/credit-cards-api.ts';
import { CreditCardForm } from './credit-card-form.tsx';

/** The credit-card wizard prefilled with a stored record, once it has loaded, and its evidence bundle. */
export function EditCreditCard({ id, onSaved }: { id: string; onSaved: () => void }) {
  const { data: creditCard, error, isLoading, refetch } = useGetCreditCardQuery(id);

  if (isLoading) return <Spinner label="Loading the credit card" />;
  if (isMissingRecord(error)) {
    return (
      <div className="state-message" role="alert">
        <p>Credit card not found. It may have been deleted.</p>
        <Link to={paths.creditCards.list.getHref()}>Back to Credit Card</Link>
      </div>
    );
  }
  if (!creditCard) {
    return <ErrorState message="The credit card could not be loaded." onRetry={() => void refetch()} />;
  }
  return (
    <>
      <div className="page-actions">
        <DownloadEvidenceButton
          url={evidencePaths.record('credit-card', creditCard._id)}
          fileName={`evidence ${creditCard.maskNo || creditCard._id}.zip`}
          subject={creditCard.custName ?? 'this credit card'}
        />
      </div>
      <CreditCardForm key={creditCard._id} creditCard={creditCard} onSaved={onSaved} />
    </>
  );
}
