import { ContentLayout } from '../../components/layout/content-layout.tsx';
import { ArchiveLists } from '../../features/archive/components/archive-lists.tsx';

export default function ArchiveRoute() {
  return (
    <ContentLayout title="Archive">
      <ArchiveLists />
    </ContentLayout>
  );
}
