import { Link } from 'react-router';
import { evidencePaths } from '@notice-desk/contract/evidence';
import type { RecordNoticeLink } from '@notice-desk/contract/notice-page';
import type { ServiceDates } from '@notice-desk/contract/service-dates';
import { DownloadEvidenceButton } from '../deliveries/download-evidence-button.tsx';
import { ErrorState } from '../ui/error-state.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { isMissingRecord } from '../../lib/api-error.ts';
import { capitalised, recordKinds, type RecordKindScreens } from './record-kinds.ts';
import { NoticeLinkLine } from './notice-link-line.tsx';
import { RecordForm } from './record-form.tsx';

type EditRecordProps<TRecord, TFields> = {
  /** Keep it stable (a module constant). */
  kind: RecordKindScreens<TRecord, TFields>;
  id: string;
  /** After the success toast (the route goes back to the list). */
  onSaved: () => void;
};

/** A kind's wizard prefilled with a stored record, once it has loaded, and its evidence bundle. */
export function EditRecord<TRecord extends { _id: string; custName?: string }, TFields>({
  kind,
  id,
  onSaved,
}: EditRecordProps<TRecord, TFields>) {
  const { one, listTitle, paths } = recordKinds[kind.type];
  const { data: record, error, isLoading, refetch } = kind.api.useRecord(id);

  if (isLoading) return <Spinner label={`Loading the ${one}`} />;
  if (isMissingRecord(error)) {
    return (
      <div className="state-message" role="alert">
        <p>{`${capitalised(one)} not found. It may have been deleted.`}</p>
        <Link to={paths.list.getHref()}>{`Back to ${listTitle}`}</Link>
      </div>
    );
  }
  if (!record) {
    return <ErrorState message={`The ${one} could not be loaded.`} onRetry={() => void refetch()} />;
  }
  return (
    <>
      <div className="page-actions">
        <DownloadEvidenceButton
          url={evidencePaths.record(kind.type, record._id)}
          fileName={`evidence ${kind.reference(record) || record._id}.zip`}
          subject={record.custName ?? `this ${one}`}
        />
      </div>
      <ServiceLine service={(record as { service?: ServiceDates | null }).service} />
      <NoticeLinkLine
        link={(record as { noticeLink?: RecordNoticeLink | null }).noticeLink}
        onRevoked={() => void refetch()}
      />
      <RecordForm key={record._id} kind={kind} record={record} onSaved={onSaved} />
    </>
  );
}

/** When the record was served (and by what) and the day to respond by, in TIME_ZONE, DD-MM-YYYY. */
function ServiceLine({ service }: { service: ServiceDates | null | undefined }) {
  if (service === undefined) return null;
  if (!service?.shown.servedOn) return <p aria-label="Service">Served on: not yet · Respond by: -</p>;
  return (
    <p aria-label="Service">
      Served on: <strong title={service.servedBy ?? undefined}>{service.shown.servedOn}</strong> (
      {service.servedBy}) · Respond by: <strong>{service.shown.respondBy ?? 'no legal basis set'}</strong>
    </p>
  );
}
