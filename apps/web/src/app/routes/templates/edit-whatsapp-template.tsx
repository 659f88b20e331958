import { useNavigate, useParams } from 'react-router';
import { ContentLayout } from '../../../components/layout/content-layout.tsx';
import { paths } from '../../../config/paths.ts';
import { EditWhatsappTemplate } from '../../../features/templates/components/edit-whatsapp-template.tsx';

export default function EditWhatsappTemplateRoute() {
  const navigate = useNavigate();
  const { id = '' } = useParams();
  return (
    <ContentLayout title="Edit Whatsapp Template">
      <EditWhatsappTemplate id={id} onSaved={() => void navigate(paths.templates.whatsapp.getHref())} />
    </ContentLayout>
  );
}
