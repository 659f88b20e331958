import { ContentLayout } from '../../../components/layout/content-layout.tsx';
import { ImportExcel } from '../../../features/imports/components/import-excel.tsx';
import { ImportProgress } from '../../../features/imports/components/import-progress.tsx';
import { CreditCardList } from '../../../features/credit-cards/components/credit-card-list.tsx';

export default function CreditCardsRoute() {
  return (
    <ContentLayout title="Credit Card">
      <ImportProgress kind="credit-card" />
      <CreditCardList importExcel={<ImportExcel kind="credit-card" />} />
    </ContentLayout>
  );
}
