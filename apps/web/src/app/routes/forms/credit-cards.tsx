import { ContentLayout } from '../../../components/layout/content-layout.tsx';
import { CreditCardList } from '../../../features/credit-cards/components/credit-card-list.tsx';

export default function CreditCardsRoute() {
  return (
    <ContentLayout title="Credit Card">
      <CreditCardList />
    </ContentLayout>
  );
}
