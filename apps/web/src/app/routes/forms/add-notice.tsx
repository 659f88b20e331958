import { useNavigate } from 'react-router';
import { ContentLayout } from '../../../components/layout/content-layout.tsx';
import { paths } from '../../../config/paths.ts';
import { NoticeForm } from '../../../features/notices/components/notice-form.tsx';

export default function AddNoticeRoute() {
  const navigate = useNavigate();
  return (
    <ContentLayout title="Add Notice">
      <NoticeForm onSaved={() => void navigate(paths.notices.list.getHref())} />
    </ContentLayout>
  );
}
