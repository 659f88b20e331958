import { useNavigate } from 'react-router';
import { CardLayout } from '../../../components/layout/card-layout.tsx';
import { paths } from '../../../config/paths.ts';
import { LoginForm } from '../../../features/auth/components/login-form.tsx';
import { SessionExpiredNotice } from '../../../features/auth/components/session-expired-notice.tsx';

export default function LoginRoute() {
  const navigate = useNavigate();
  return (
    <CardLayout title="Login">
      <SessionExpiredNotice />
      <LoginForm onSuccess={() => navigate(paths.home.getHref(), { replace: true })} />
    </CardLayout>
  );
}
