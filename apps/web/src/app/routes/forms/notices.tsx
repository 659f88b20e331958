import { ContentLayout } from '../../../components/layout/content-layout.tsx';
import { NoticeList } from '../../../features/notices/components/notice-list.tsx';

export default function NoticesRoute() {
  return (
    <ContentLayout title="Notice Concialation">
      <NoticeList />
    </ContentLayout>
  );
}
