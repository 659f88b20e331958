import { ContentLayout } from '../../components/layout/content-layout.tsx';
import { AuditLog } from '../../features/audit/components/audit-log.tsx';

export default function AuditLogRoute() {
  return (
    <ContentLayout title="Audit Log">
      <AuditLog />
    </ContentLayout>
  );
}
