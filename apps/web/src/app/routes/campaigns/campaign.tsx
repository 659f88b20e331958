import { data, useParams, type LoaderFunctionArgs } from 'react-router';
import { campaignTypes, type CampaignType } from '@notice-desk/contract/campaigns';
import { CampaignDetail } from '../../../features/campaigns/components/campaign-detail.tsx';
import { PostPanel } from '../../../features/post/components/post-panel.tsx';

const isCampaignType = (value: string | undefined): value is CampaignType =>
  (campaignTypes as readonly (string | undefined)[]).includes(value);

/** Only notice and credit-card campaigns exist; any other type is an unknown page. */
export function loader({ params }: LoaderFunctionArgs) {
  if (!isCampaignType(params.type)) throw data(null, { status: 404, statusText: 'Not Found' });
  return null;
}

export default function CampaignRoute() {
  const { type, id = '' } = useParams();
  // The loader let only a known type through.
  if (!isCampaignType(type)) return null;
  // A new id is a new page: paging and selection start again.
  return (
    <CampaignDetail
      key={`${type}/${id}`}
      type={type}
      campaignId={id}
      // A notice goes by post when its Mode Of Dispatch says so; credit cards go by e-mail and WhatsApp.
      panels={type === 'notice' ? (name) => <PostPanel campaignId={id} campaignName={name} /> : undefined}
    />
  );
}
