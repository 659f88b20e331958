import { useNavigate } from 'react-router';
import { ContentLayout } from '../../../components/layout/content-layout.tsx';
import { paths } from '../../../config/paths.ts';
import { CreditCardForm } from '../../../features/credit-cards/components/credit-card-form.tsx';

export default function AddCreditCardRoute() {
  const navigate = useNavigate();
  return (
    <ContentLayout title="Add Credit Card">
      <CreditCardForm onSaved={() => void navigate(paths.creditCards.list.getHref())} />
    </ContentLayout>
  );
}
