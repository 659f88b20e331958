import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import type { CampaignType } from '@notice-desk/contract/campaigns';
import type { EditAndResendBody, FailedRow } from '@notice-desk/contract/failed-rows';
import { unserviceableReason } from '@notice-desk/contract/serviceable';
import { DeliveryStatus } from '../../../components/deliveries/delivery-status.tsx';
import { FilterSelect } from '../../../components/ui/filter-select.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { readApiProblem } from '../../../lib/api-error.ts';
import {
  useEditAndResendMutation,
  useGetFailedRowsQuery,
  type FailedRowsShow,
} from '../api/failed-rows-api.ts';
import styles from './failed-rows.module.css';

/** The two fields Edit and resend offers: its name, label and input type. */
const addressFields = [
  ['emailId', 'E-mail', 'email'],
  ['custMobileNo', 'Mobile', 'tel'],
] as const;

const PAGE_SIZE = 20;
/** The first page's paging, which the campaign page shares for its counts (one request, one cache entry). */
export const FAILED_ROWS_PAGE = { page: 1, limit: PAGE_SIZE } as const;
const channelWord = { email: 'E-mail', whatsapp: 'WhatsApp', sms: 'SMS' } as const;
/** DEFAULT_COUNTRY_CODE's usual value: the form checks a number as the server will (the server has the last word). */
const COUNTRY_CODE = '91';

type FailedRowsProps = {
  type: CampaignType;
  campaignId: string;
  /** All failed rows, or only those whose record still has the address that failed. */
  show: FailedRowsShow;
  onShowChange: (show: FailedRowsShow) => void;
};

/**
 * The campaign's failed rows (a record and channel whose latest attempt failed, bounced or was not
 * serviceable), each with its loan number or AAN, where it went and why it failed, and Edit and resend.
 * A list of cards on a phone, a table's columns from 640 px.
 */
export function FailedRows({ type, campaignId, show, onShowChange }: FailedRowsProps) {
  const [page, setPage] = useState(1);
  const [shownFor, setShownFor] = useState(show);
  if (shownFor !== show) {
    setShownFor(show);
    setPage(1);
  }
  const { data } = useGetFailedRowsQuery({ campaignId, page, limit: PAGE_SIZE, show });
  const [editing, setEditing] = useState<string | null>(null);
  // Nothing failed (or no count came back): no panel.
  if (!data?.failed) return null;
  const pages = Math.max(1, Math.ceil(data.total / PAGE_SIZE));
  const referenceLabel = type === 'notice' ? 'Loan No.' : 'AAN';
  return (
    <section id="failed-rows" className={styles.section} aria-labelledby="failed-rows-title">
      <h2 id="failed-rows-title" className={styles.title}>
        Failed rows
      </h2>
      <p className={styles.counts}>
        {data.failed} failed {data.failed === 1 ? 'row' : 'rows'}; {data.unchanged} still{' '}
        {data.unchanged === 1 ? 'has' : 'have'} the address that failed.
      </p>
      <FilterSelect
        className={styles.filter}
        label="Show"
        value={show}
        onChange={(value) => onShowChange(value as FailedRowsShow)}
      >
        <option value="all">Every failed row</option>
        <option value="unchanged">Address unchanged since it failed</option>
      </FilterSelect>
      {data.items.length === 0 ? (
        <p className={styles.empty}>No failed row has the address that failed.</p>
      ) : (
        <ul className={styles.list} aria-label="Failed rows">
          {data.items.map((row) => {
            const key = `${row.recordId}:${row.channel}`;
            return (
              <li key={key} className={styles.row}>
                <dl className={styles.facts}>
                  <div>
                    <dt>{referenceLabel}</dt>
                    <dd>{row.reference || '-'}</dd>
                  </div>
                  <div>
                    <dt>Name</dt>
                    <dd>{row.custName || '-'}</dd>
                  </div>
                  <div>
                    <dt>Channel</dt>
                    <dd>
                      {channelWord[row.channel]} <DeliveryStatus status={row.status} tone="failure" />
                    </dd>
                  </div>
                  <div>
                    <dt>Sent to</dt>
                    <dd>
                      <span className={styles.address}>{row.recipient || '-'}</span>
                      {row.unchanged && <span className={styles.unchanged}> (unchanged)</span>}
                    </dd>
                  </div>
                  <div className={styles.reason}>
                    <dt>Reason</dt>
                    <dd>{row.reason || 'No reason given'}</dd>
                  </div>
                </dl>
                {editing === key ? (
                  <EditAndResendForm campaignId={campaignId} row={row} onDone={() => setEditing(null)} />
                ) : (
                  <button
                    type="button"
                    className="button button-secondary button-small"
                    aria-label={`Edit and resend ${row.reference || row.custName} by ${channelWord[row.channel]}`}
                    onClick={() => setEditing(key)}
                  >
                    Edit and resend
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {pages > 1 && (
        <nav className={styles.pager} aria-label="Failed rows pages">
          <button
            type="button"
            className="button button-secondary button-small"
            disabled={page <= 1}
            onClick={() => setPage(page - 1)}
          >
            Previous
          </button>
          <span>
            Page {page} of {pages}
          </span>
          <button
            type="button"
            className="button button-secondary button-small"
            disabled={page >= pages}
            onClick={() => setPage(page + 1)}
          >
            Next
          </button>
        </nav>
      )}
    </section>
  );
}

type Field = 'emailId' | 'custMobileNo';

/** The record's e-mail and mobile, saved and resent on the row's channel in one step. */
function EditAndResendForm({
  campaignId,
  row,
  onDone,
}: {
  campaignId: string;
  row: FailedRow;
  onDone: () => void;
}) {
  const [values, setValues] = useState<Record<Field, string>>({
    emailId: row.emailId,
    custMobileNo: row.custMobileNo,
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  /** A question of the send (bounced before, served recently) waiting for an answer. */
  const [question, setQuestion] = useState<{ text: string; confirm: Partial<EditAndResendBody> } | null>(
    null,
  );
  const [editAndResend, { isLoading }] = useEditAndResendMutation();
  const field = row.channel === 'email' ? 'emailId' : 'custMobileNo';

  const submit = async (confirm: Partial<EditAndResendBody> = {}) => {
    const problem = unserviceableReason(row.channel, values[field].trim(), COUNTRY_CODE);
    if (problem) {
      setErrors({ [field]: `Cannot send here: ${problem}.` });
      return;
    }
    setErrors({});
    try {
      const result = await editAndResend({
        campaignId,
        recordId: row.recordId,
        body: {
          channel: row.channel,
          emailId: values.emailId,
          custMobileNo: values.custMobileNo,
          ...confirm,
        },
      }).unwrap();
      const { send } = result;
      if (send.failed > 0) toast.error(`${result.message} It failed again; see the reason in the row.`);
      else toast.success(result.message);
      setQuestion(null);
      onDone();
    } catch (error) {
      const body = (error as { data?: { code?: string; message?: string } }).data;
      if (body?.code === 'BOUNCED_BEFORE')
        setQuestion({ text: body.message ?? '', confirm: { ...confirm, confirmBounced: true } });
      else if (body?.code === 'SERVED_RECENTLY')
        setQuestion({ text: body.message ?? '', confirm: { ...confirm, confirmServedRecently: true } });
      else {
        const { fieldErrors, message } = readApiProblem(error);
        const known = { emailId: fieldErrors.emailId, custMobileNo: fieldErrors.custMobileNo };
        if (known.emailId || known.custMobileNo) setErrors(known);
        else toast.error(message ?? 'The record could not be resent.');
      }
    }
  };

  // A changed value is judged again when saved: its old message and any open question go.
  const change = (key: Field, value: string) => {
    setValues({ ...values, [key]: value });
    setErrors({ ...errors, [key]: undefined });
    setQuestion(null);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit();
  };

  return (
    <form className={styles.form} onSubmit={onSubmit} aria-label="Edit and resend" noValidate>
      {addressFields.map(([name, label, type]) => (
        <TextField
          key={name}
          name={name}
          label={label}
          type={type}
          autoComplete="off"
          value={values[name]}
          error={errors[name]}
          onChange={(event) => change(name, event.target.value)}
        />
      ))}
      {question && (
        <p className={styles.question} role="alert">
          {question.text}
        </p>
      )}
      <div className={styles.formActions}>
        {question ? (
          <button
            type="button"
            className="button button-primary button-small"
            disabled={isLoading}
            aria-busy={isLoading}
            onClick={() => void submit(question.confirm)}
          >
            Send anyway
          </button>
        ) : (
          <button
            type="submit"
            className="button button-primary button-small"
            disabled={isLoading}
            aria-busy={isLoading}
          >
            Save and resend by {channelWord[row.channel]}
          </button>
        )}
        <button type="button" className="button button-secondary button-small" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
