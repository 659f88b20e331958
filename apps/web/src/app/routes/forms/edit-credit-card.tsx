import { ContentLayout } from '../../../components/layout/content-layout.tsx';

// The screen's content arrives with its own issue; until then it shows only its heading.
export default function EditCreditCardRoute() {
  return <ContentLayout title="Edit Credit Card" />;
}
