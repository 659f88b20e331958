import { useId } from 'react';
import {
  funnelStepLabels,
  funnelSteps,
  type Funnel,
  type FunnelRow,
  type FunnelStep,
} from '@notice-desk/contract/funnel';
import styles from './funnel-chart.module.css';

export const NOTHING_SENT = 'Nothing sent yet. The funnel fills in as notices go out.';

const channelLabels: Record<FunnelRow['channel'], string> = {
  email: 'E-mail',
  whatsapp: 'WhatsApp',
  post: 'Post',
  sms: 'SMS',
  any: 'Any channel',
};

/** E-mail has no read receipts: its Read row says so rather than show a 0 that reads as none read. */
const unknownStep = (channel: FunnelRow['channel'], step: FunnelStep) =>
  channel === 'email' && step === 'read';

/** The notice page's steps, drawn in a colour of their own after the delivery ones. */
const pageSteps: ReadonlySet<FunnelStep> = new Set([
  'opened',
  'verified',
  'acknowledged',
  'disputed',
  'settleRequested',
]);

/**
 * A count as a share of those sent, rounded so it never claims what is not so: some of many is never
 * shown as 0% (`<1%`), nor all-but-a-few as 100% (`>99%`).
 */
export function shareOfSent(count: number, sent: number): string {
  if (sent <= 0) return '–';
  if (count === 0) return '0%';
  const rounded = Math.round((count / sent) * 100);
  if (rounded === 0) return '<1%';
  if (rounded === 100 && count < sent) return '>99%';
  return `${rounded}%`;
}

const formatCount = (count: number) => count.toLocaleString('en-IN');

function ChannelFunnel({ row }: { row: FunnelRow }) {
  const label = channelLabels[row.channel];
  if (row.sent === 0)
    return (
      <div className={styles.channel}>
        <h3 className={styles.channelTitle}>{label}</h3>
        <p className={styles.nothing}>
          {row.channel === 'any' ? 'Nothing sent yet.' : `Nothing sent by ${label} yet.`}
        </p>
      </div>
    );
  return (
    <div className={styles.channel}>
      <table className={styles.steps}>
        <caption className={styles.channelTitle}>{label}</caption>
        <thead className="visually-hidden">
          <tr>
            <th scope="col">Step</th>
            <th scope="col">Records</th>
            <th scope="col">Share of sent</th>
          </tr>
        </thead>
        <tbody>
          {funnelSteps.map((step) => {
            if (unknownStep(row.channel, step))
              return (
                <tr key={step} className={styles.unknown}>
                  <th scope="row" className={styles.step}>
                    {funnelStepLabels[step]}
                    <span className="visually-hidden"> (e-mail has no read receipts)</span>
                  </th>
                  <td className={styles.barCell} title="E-mail has no read receipts">
                    <span className={styles.track} aria-hidden="true" />
                    <span className={styles.count}>–</span>
                  </td>
                  <td className={styles.share}>–</td>
                </tr>
              );
            const count = row[step];
            const width = Math.min(100, (count / row.sent) * 100);
            return (
              <tr key={step}>
                <th scope="row" className={styles.step}>
                  {funnelStepLabels[step]}
                </th>
                <td className={styles.barCell}>
                  <span className={styles.track} aria-hidden="true">
                    <span
                      className={`${styles.bar} ${pageSteps.has(step) ? styles.pageBar : ''} ${count > 0 ? styles.some : ''}`}
                      style={{ width: `${width}%` }}
                    />
                  </span>
                  <span className={styles.count}>{formatCount(count)}</span>
                </td>
                <td className={styles.share}>{shareOfSent(count, row.sent)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The funnel as people read it at a glance: per channel, a bar per step (sent → delivered → read →
 * opened → verified → acknowledged / disputed / settle asked) as long as its share of those sent,
 * with the count and the share as text (a table, so a screen reader reads the numbers).
 */
export function FunnelChart({ funnel, title = 'How far notices got' }: { funnel: Funnel; title?: string }) {
  const titleId = useId();
  const nothingSent = funnel.rows.every((row) => row.sent === 0);
  return (
    <section className={styles.panel} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.title}>
        {title}
      </h2>
      {nothingSent ? (
        <p className={styles.nothing}>{NOTHING_SENT}</p>
      ) : (
        <>
          <p className={styles.note}>
            Each step counts records, each once; the share is of those sent on the channel. Opened and the
            steps after it come from the notice page, by the link the borrower followed.
          </p>
          <div className={styles.channels}>
            {funnel.rows.map((row) => (
              <ChannelFunnel key={row.channel} row={row} />
            ))}
          </div>
        </>
      )}
    </section>
  );
}
