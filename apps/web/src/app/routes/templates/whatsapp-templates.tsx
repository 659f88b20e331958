import { ContentLayout } from '../../../components/layout/content-layout.tsx';
import { WhatsappTemplateList } from '../../../features/templates/components/whatsapp-template-list.tsx';

export default function WhatsappTemplatesRoute() {
  return (
    <ContentLayout title="Whatsapp Templates">
      <WhatsappTemplateList />
    </ContentLayout>
  );
}
