import { useNavigate, useParams } from 'react-router';
import { ContentLayout } from '../../../components/layout/content-layout.tsx';
import { paths } from '../../../config/paths.ts';
import { EditEmailTemplate } from '../../../features/templates/components/edit-email-template.tsx';

// This route alone loads TinyMCE (through the editor module), so it stays out of the first page load.
export default function EditEmailTemplateRoute() {
  const navigate = useNavigate();
  const { id = '' } = useParams();
  return (
    <ContentLayout title="Edit PDF Editor">
      <EditEmailTemplate id={id} onSaved={() => void navigate(paths.templates.email.getHref())} />
    </ContentLayout>
  );
}
