import { ContentLayout } from '../../../components/layout/content-layout.tsx';
import { CampaignList } from '../../../features/campaigns/components/campaign-list.tsx';

export default function NoticeCampaignsRoute() {
  return (
    <ContentLayout title="Notice Campaigns">
      <CampaignList type="notice" />
    </ContentLayout>
  );
}
