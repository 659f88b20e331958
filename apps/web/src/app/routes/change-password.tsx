import { ContentLayout } from '../../components/layout/content-layout.tsx';
import { ChangePasswordForm } from '../../features/auth/components/change-password-form.tsx';

export default function ChangePasswordRoute() {
  return (
    <ContentLayout title="Change Password">
      <div className="panel panel-narrow">
        <ChangePasswordForm />
      </div>
    </ContentLayout>
  );
}
