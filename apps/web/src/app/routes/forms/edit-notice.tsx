import { useNavigate, useParams } from 'react-router';
import { ContentLayout } from '../../../components/layout/content-layout.tsx';
import { paths } from '../../../config/paths.ts';
import { EditNotice } from '../../../features/notices/components/edit-notice.tsx';

export default function EditNoticeRoute() {
  const navigate = useNavigate();
  const { id = '' } = useParams();
  return (
    <ContentLayout title="Edit Notice">
      <EditNotice id={id} onSaved={() => void navigate(paths.notices.list.getHref())} />
    </ContentLayout>
  );
}
