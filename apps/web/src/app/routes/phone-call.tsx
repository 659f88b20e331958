import { useSearchParams } from 'react-router';
import { CardLayout } from '../../components/layout/card-layout.tsx';
import { CallLink } from '../../features/phone-call/components/call-link.tsx';

export default function PhoneCallRoute() {
  const [searchParams] = useSearchParams();
  return (
    <CardLayout title="Phone Call">
      <CallLink phone={searchParams.get('phone') ?? ''} />
    </CardLayout>
  );
}
