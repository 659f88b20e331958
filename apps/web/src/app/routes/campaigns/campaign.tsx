import { data, type LoaderFunctionArgs } from 'react-router';
import { ContentLayout } from '../../../components/layout/content-layout.tsx';
import type { CampaignType } from '../../../config/paths.ts';

const campaignTypes: readonly string[] = ['notice', 'credit-card'] satisfies CampaignType[];

/** Only notice and credit-card campaigns exist; any other type is an unknown page. */
export function loader({ params }: LoaderFunctionArgs) {
  if (!campaignTypes.includes(params.type ?? '')) throw data(null, { status: 404, statusText: 'Not Found' });
  return null;
}

// The screen's content arrives with its own issue; until then it shows only its heading.
export default function CampaignRoute() {
  return <ContentLayout title="Campaign Details" />;
}
