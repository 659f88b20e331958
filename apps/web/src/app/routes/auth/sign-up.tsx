import { useNavigate } from 'react-router';
import { CardLayout } from '../../../components/layout/card-layout.tsx';
import { paths } from '../../../config/paths.ts';
import { SignUpForm } from '../../../features/auth/components/sign-up-form.tsx';

export default function SignUpRoute() {
  const navigate = useNavigate();
  return (
    <CardLayout title="Sign Up">
      <SignUpForm onSuccess={() => navigate(paths.auth.login.getHref())} />
    </CardLayout>
  );
}
