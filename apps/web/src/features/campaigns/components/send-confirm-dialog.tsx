import { useState } from 'react';
import type { MessageChannel, SendSummary } from '@notice-desk/contract/sending';
import { mailUnserviceableReason, mobileUnserviceableReason } from '@notice-desk/contract/serviceable';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { readApiProblem } from '../../../lib/api-error.ts';
import { useTestSendMutation } from '../api/campaigns-api.ts';
import styles from './send-confirm-dialog.module.css';

const channelNames: Record<MessageChannel, string> = { email: 'E-mail', whatsapp: 'WhatsApp', sms: 'SMS' };

/** DEFAULT_COUNTRY_CODE's usual value: the web checks the typed number as the server will (the server has the last word). */
const COUNTRY_CODE = '91';

type SendConfirmDialogProps = {
  campaignId: string;
  /** The counts of the send being confirmed; null when no confirmation is open. */
  summary: SendSummary | null;
  /** The first selected record: the one the test send renders. */
  recordId?: string | undefined;
  onConfirm: () => void;
  onCancel: () => void;
};

/**
 * Before a bulk send (more records than BULK_SEND_CONFIRM_THRESHOLD): what it will do per channel (to
 * send, not serviceable, already served recently by another campaign, sent before), and an optional
 * test send of one rendered notice to an address the person types, which is not recorded as service.
 */
export function SendConfirmDialog({
  campaignId,
  summary,
  recordId,
  onConfirm,
  onCancel,
}: SendConfirmDialogProps) {
  const records = summary?.records ?? 0;
  const servedRecently = summary?.channels.reduce((n, c) => n + c.servedRecently, 0) ?? 0;
  return (
    <ConfirmDialog
      open={summary !== null}
      question={`Send notices for ${records} ${records === 1 ? 'record' : 'records'}?`}
      confirmLabel="Send"
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      {summary && (
        <>
          <table className={styles.counts} aria-label="What the send will do, per channel">
            <thead>
              <tr>
                <th scope="col">Channel</th>
                <th scope="col">To send</th>
                <th scope="col">Not serviceable</th>
                <th scope="col">Served recently</th>
                <th scope="col">Sent before</th>
              </tr>
            </thead>
            <tbody>
              {summary.channels.map((c) => (
                <tr key={c.channel}>
                  <th scope="row">{channelNames[c.channel]}</th>
                  <td>{c.toSend}</td>
                  <td>{c.notServiceable}</td>
                  <td>{c.servedRecently}</td>
                  <td>{c.sentBefore}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {servedRecently > 0 && (
            <p className={styles.warning}>
              Some borrowers were served a notice by another campaign in the last {summary.reserveWarnDays}{' '}
              days. Send will serve them again.
            </p>
          )}
          <p className={styles.testNote}>
            Records not serviceable are left out on that channel. Records sent before are skipped.
          </p>
          <TestSend campaignId={campaignId} recordId={recordId} />
        </>
      )}
    </ConfirmDialog>
  );
}

/** The optional test send: one rendered notice to a colleague's address, by the real channel. */
function TestSend({ campaignId, recordId }: { campaignId: string; recordId?: string | undefined }) {
  const [channel, setChannel] = useState<MessageChannel>('email');
  const [to, setTo] = useState('');
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [testSend, { isLoading }] = useTestSendMutation();
  const typed = to.trim();
  const problem =
    typed === ''
      ? null
      : channel === 'email'
        ? mailUnserviceableReason(typed)
        : mobileUnserviceableReason(typed, COUNTRY_CODE);

  const send = async () => {
    setOutcome(null);
    try {
      const answer = await testSend({
        campaignId,
        channel,
        to: typed,
        ...(recordId && { recordId }),
      }).unwrap();
      setOutcome({
        ok: true,
        text:
          answer.via === 'outbox'
            ? `${answer.message} No provider is set up: it went to the outbox.`
            : answer.message,
      });
    } catch (error) {
      const read = readApiProblem(error);
      setOutcome({
        ok: false,
        text: read.fieldErrors.to ?? read.message ?? 'The test could not be sent.',
      });
    }
  };

  return (
    <fieldset className={styles.test}>
      <legend>Test send (optional)</legend>
      <p className={styles.testNote}>
        Sends one notice to an address you type, such as a colleague&apos;s. It is not recorded as service.
      </p>
      <div className={styles.testRow}>
        <label>
          Channel
          <select value={channel} onChange={(event) => setChannel(event.target.value as MessageChannel)}>
            <option value="email">E-mail</option>
            <option value="whatsapp">WhatsApp</option>
          </select>
        </label>
        <label>
          {channel === 'email' ? 'E-mail address' : 'Mobile number'}
          <input
            type={channel === 'email' ? 'email' : 'tel'}
            value={to}
            onChange={(event) => setTo(event.target.value)}
            aria-invalid={problem !== null}
          />
        </label>
        <button
          type="button"
          className="button button-secondary"
          disabled={isLoading || typed === '' || problem !== null}
          aria-busy={isLoading}
          onClick={() => void send()}
        >
          Send test
        </button>
      </div>
      {problem && <p className={styles.testError}>Not serviceable: {problem}.</p>}
      {outcome && (
        <p className={outcome.ok ? styles.testNote : styles.testError} role="status">
          {outcome.text}
        </p>
      )}
    </fieldset>
  );
}
