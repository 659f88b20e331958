import { Link } from 'react-router';
import { ErrorState } from '../../../components/ui/error-state.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { isMissingRecord } from '../../../lib/api-error.ts';
import { useGetWhatsappTemplateQuery } from '../api/templates-api.ts';
import { WhatsappTemplateForm } from './whatsapp-template-form.tsx';

/** The WhatsApp template form for a stored template, once it has loaded. */
export function EditWhatsappTemplate({ id, onSaved }: { id: string; onSaved: () => void }) {
  const { data: template, error, isLoading, refetch } = useGetWhatsappTemplateQuery(id);

  if (isLoading) return <Spinner label="Loading the template" />;
  if (isMissingRecord(error)) {
    return (
      <div className="state-message" role="alert">
        <p>Template not found.</p>
        <Link to={paths.templates.whatsapp.getHref()}>Back to the WhatsApp templates</Link>
      </div>
    );
  }
  if (!template) {
    return <ErrorState message="The template could not be loaded." onRetry={() => void refetch()} />;
  }
  return <WhatsappTemplateForm key={template._id} template={template} onSaved={onSaved} />;
}
