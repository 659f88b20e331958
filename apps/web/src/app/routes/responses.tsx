import { ContentLayout } from '../../components/layout/content-layout.tsx';
import { ResponsesList } from '../../features/responses/components/responses-list.tsx';

export default function ResponsesRoute() {
  return (
    <ContentLayout title="Responses">
      <ResponsesList />
    </ContentLayout>
  );
}
