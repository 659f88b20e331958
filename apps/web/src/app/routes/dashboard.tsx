import { ContentLayout } from '../../components/layout/content-layout.tsx';
import { Dashboard } from '../../features/dashboard/components/dashboard.tsx';

export default function DashboardRoute() {
  return (
    <ContentLayout title="Dashboard">
      <Dashboard />
    </ContentLayout>
  );
}
