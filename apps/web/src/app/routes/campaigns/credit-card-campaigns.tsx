import { ContentLayout } from '../../../components/layout/content-layout.tsx';
import { CampaignList } from '../../../features/campaigns/components/campaign-list.tsx';

export default function CreditCardCampaignsRoute() {
  return (
    <ContentLayout title="Credit Card Campaigns">
      <CampaignList type="credit-card" />
    </ContentLayout>
  );
}
