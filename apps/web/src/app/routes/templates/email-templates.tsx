import { ContentLayout } from '../../../components/layout/content-layout.tsx';
import { EmailTemplateList } from '../../../features/templates/components/email-template-list.tsx';

export default function EmailTemplatesRoute() {
  return (
    <ContentLayout title="PDF Editor">
      <EmailTemplateList />
    </ContentLayout>
  );
}
