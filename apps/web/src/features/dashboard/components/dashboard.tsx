import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { DashboardInfo, MailInfo } from '@notice-desk/contract/dashboard';
import { deliveryStatuses, type DeliveryStatus as Status } from '@notice-desk/contract/sending';
import { DeliveryStatus, type DeliveryTone } from '../../../components/deliveries/delivery-status.tsx';
import { deliveryStatusWord } from '../../../components/deliveries/delivery-status-words.ts';
import { ErrorState } from '../../../components/ui/error-state.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { TablePager } from '../../../components/ui/table-pager.tsx';
import { usePagination } from '../../../hooks/use-pagination.ts';
import { paths } from '../../../config/paths.ts';
import { formatListDate } from '../../../utils/format-date.ts';
import { FunnelChart } from '../../../components/deliveries/funnel-chart.tsx';
import {
  useGetDashboardFunnelQuery,
  useGetDashboardQuery,
  useGetMailDetailsQuery,
} from '../api/dashboard-api.ts';
// The product's table look, shared with every list (a failure's reason tooltip sits in its scroller).
import { FilterSelect } from '../../../components/ui/filter-select.tsx';
import tableStyles from '../../../components/ui/data-table.module.css';
import styles from './dashboard.module.css';

export const NO_MAIL_DETAILS = 'No Mail Details Found!!';

const tiles: { label: string; total: (info: DashboardInfo) => number; href: string }[] = [
  { label: 'Credit Cards', total: (info) => info.totalCreditCards, href: paths.creditCards.list.getHref() },
  { label: 'Notices', total: (info) => info.totalNotices, href: paths.notices.list.getHref() },
  {
    label: 'Credit Card Campaigns',
    total: (info) => info.totalCreditCardCampaigns,
    href: paths.campaigns.creditCards.getHref(),
  },
  {
    label: 'Notice Campaigns',
    total: (info) => info.totalNoticeCampaigns,
    href: paths.campaigns.notices.getHref(),
  },
];

const channelName: Record<MailInfo['channel'], string> = { email: 'Email', whatsapp: 'WhatsApp', sms: 'SMS' };

/**
 * The spec styles a mail as success or failure: anything that went out (to a provider, or to the
 * outbox when none is configured) is a success, a failure is one; a send still waiting is neither.
 */
const mailTone = (status: string): DeliveryTone =>
  status === 'failed' || status === 'bounced' ? 'failure' : status === 'queued' ? 'pending' : 'success';

const MAILS_PER_PAGE = 20;

/** Mails Details: every delivery, newest first, a page at a time, of one status or all. */
function MailsDetails() {
  const [status, setStatus] = useState<Status | ''>('');
  const { page, limit, setPage } = usePagination(MAILS_PER_PAGE, status);
  const { data, isLoading, isFetching, isError, refetch } = useGetMailDetailsQuery(
    { page, limit, ...(status ? { status } : {}) },
    { refetchOnMountOrArgChange: true },
  );
  return (
    <>
      <FilterSelect
        className={styles.mailFilter}
        label="Status"
        value={status}
        onChange={(value) => setStatus(value as Status | '')}
      >
        <option value="">All</option>
        {deliveryStatuses.map((s) => (
          <option key={s} value={s}>
            {deliveryStatusWord(s)}
          </option>
        ))}
      </FilterSelect>
      {isLoading ? (
        <Spinner label="Loading the mails" />
      ) : isError || !data ? (
        <ErrorState message="The mails could not be loaded." onRetry={() => void refetch()} />
      ) : data.items.length === 0 ? (
        <p className="state-message">{NO_MAIL_DETAILS}</p>
      ) : (
        <>
          <div className={tableStyles.scroller} role="region" aria-label="Mails Details table" tabIndex={0}>
            {/* Below 640 px each mail is a card, as in every list (data-table.module.css). */}
            <table className={`${tableStyles.table} ${tableStyles.cards}`} aria-busy={isFetching}>
              <thead>
                <tr>
                  <th scope="col">No.</th>
                  <th scope="col">Name</th>
                  <th scope="col">Channel</th>
                  <th scope="col">Date</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((mail, index) => (
                  <tr key={mail._id} className={tableStyles.row}>
                    <td className={tableStyles.cardNumber} data-label="No.">
                      {(page - 1) * limit + index + 1}
                    </td>
                    <td className={tableStyles.cardTitle}>{mail.name}</td>
                    <td data-label="Channel">{channelName[mail.channel] ?? mail.channel}</td>
                    <td data-label="Date">
                      <time
                        className={styles.nowrap}
                        dateTime={mail.date}
                        title={new Date(mail.date).toLocaleString()}
                      >
                        {formatListDate(mail.date)}
                      </time>
                    </td>
                    <td className={tableStyles.cardWide} data-label="Status">
                      <DeliveryStatus status={mail.status} error={mail.error} tone={mailTone(mail.status)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <TablePager
            page={page}
            limit={limit}
            total={data.total}
            label="Mails Details"
            onPageChange={setPage}
          />
        </>
      )}
    </>
  );
}

/** How far the user's notices got, over every live campaign (an ADMIN's: everyone's). */
function DashboardFunnel() {
  const { data, isError, refetch } = useGetDashboardFunnelQuery(undefined, {
    refetchOnMountOrArgChange: true,
  });
  if (isError) return <ErrorState message="The funnel could not be loaded." onRetry={() => void refetch()} />;
  return data ? <FunnelChart funnel={data} /> : null;
}

/** /: the user's totals, how far their notices got, and their latest deliveries. */
export function Dashboard() {
  const mailDetailsTitleId = useId();
  // Statuses move on the server (WhatsApp reports delivered and read later), so each visit asks again.
  const { data, isLoading, isError, refetch } = useGetDashboardQuery(undefined, {
    refetchOnMountOrArgChange: true,
  });

  if (isLoading) return <Spinner label="Loading the dashboard" />;
  if (isError || !data) {
    return (
      <div className="panel">
        <ErrorState message="The dashboard could not be loaded." onRetry={() => void refetch()} />
      </div>
    );
  }

  return (
    <>
      <ul className={styles.tiles}>
        {tiles.map((tile) => (
          <li key={tile.label}>
            <Link className={styles.tile} to={tile.href}>
              <span className={styles.total}>{tile.total(data).toLocaleString()}</span>
              <span className={styles.tileLabel}>{tile.label}</span>
            </Link>
          </li>
        ))}
      </ul>
      <DashboardFunnel />
      <section className={styles.panel} aria-labelledby={mailDetailsTitleId}>
        <h2 id={mailDetailsTitleId} className={styles.panelTitle}>
          Mails Details
        </h2>
        <MailsDetails />
      </section>
    </>
  );
}
