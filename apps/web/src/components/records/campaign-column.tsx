import type { CampaignType } from '@notice-desk/contract/campaigns';
import { Link } from 'react-router';
import { paths } from '../../config/paths.ts';
import type { DataTableColumn } from '../ui/data-table.tsx';
import styles from './campaign-column.module.css';

/**
 * A list's Campaign column: the name of the campaign each record is in, linking to it, so copies of a
 * loan imported more than once tell apart.
 */
export function campaignColumn<TRow extends { campaignId: string; campaignName?: string }>(
  type: CampaignType,
): DataTableColumn<TRow> {
  return {
    id: 'campaign',
    header: 'Campaign',
    cell: (row) => (
      <Link className={styles.campaign} to={paths.campaigns.detail.getHref(type, row.campaignId)}>
        {row.campaignName || 'Campaign'}
      </Link>
    ),
  };
}
