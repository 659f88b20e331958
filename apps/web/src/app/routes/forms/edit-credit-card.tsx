import { useNavigate, useParams } from 'react-router';
import { ContentLayout } from '../../../components/layout/content-layout.tsx';
import { paths } from '../../../config/paths.ts';
import { EditCreditCard } from '../../../features/credit-cards/components/edit-credit-card.tsx';

export default function EditCreditCardRoute() {
  const navigate = useNavigate();
  const { id = '' } = useParams();
  return (
    <ContentLayout title="Edit Credit Card">
      <EditCreditCard id={id} onSaved={() => void navigate(paths.creditCards.list.getHref())} />
    </ContentLayout>
  );
}
