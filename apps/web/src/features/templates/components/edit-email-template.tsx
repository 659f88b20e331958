import { Link } from 'react-router';
import { ErrorState } from '../../../components/ui/error-state.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { isMissingRecord } from '../../../lib/api-error.ts';
import { useGetEmailTemplateQuery } from '../api/templates-api.ts';
import { EmailTemplateForm } from './email-template-form.tsx';

/** The PDF Editor form for a stored template, once it has loaded. */
export function EditEmailTemplate({ id, onSaved }: { id: string; onSaved: () => void }) {
  const { data: template, error, isLoading, refetch } = useGetEmailTemplateQuery(id);

  if (isLoading) return <Spinner label="Loading the template" />;
  if (isMissingRecord(error)) {
    return (
      <div className="state-message" role="alert">
        <p>Template not found.</p>
        <Link to={paths.templates.email.getHref()}>Back to the PDF Editor</Link>
      </div>
    );
  }
  if (!template) {
    return <ErrorState message="The template could not be loaded." onRetry={() => void refetch()} />;
  }
  return <EmailTemplateForm key={template._id} template={template} onSaved={onSaved} />;
}
