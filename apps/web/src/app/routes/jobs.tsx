import { ContentLayout } from '../../components/layout/content-layout.tsx';
import { JobsList } from '../../features/jobs/components/jobs-list.tsx';

export default function JobsRoute() {
  return (
    <ContentLayout title="Jobs">
      <JobsList />
    </ContentLayout>
  );
}
