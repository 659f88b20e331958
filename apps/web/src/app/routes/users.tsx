import { ContentLayout } from '../../components/layout/content-layout.tsx';
import { UsersScreen } from '../../features/users/components/users-screen.tsx';

export default function UsersRoute() {
  return (
    <ContentLayout title="Users">
      <UsersScreen />
    </ContentLayout>
  );
}
