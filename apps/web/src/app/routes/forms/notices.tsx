import { ContentLayout } from '../../../components/layout/content-layout.tsx';
import { ImportExcel } from '../../../features/imports/components/import-excel.tsx';
import { ImportProgress } from '../../../features/imports/components/import-progress.tsx';
import { NoticeList } from '../../../features/notices/components/notice-list.tsx';

export default function NoticesRoute() {
  return (
    <ContentLayout title="Notice Concialation">
      <ImportProgress kind="notice" />
      <NoticeList importExcel={<ImportExcel kind="notice" />} />
    </ContentLayout>
  );
}
