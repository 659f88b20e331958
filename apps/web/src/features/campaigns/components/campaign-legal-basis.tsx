import type { LegalBasis } from '@notice-desk/contract/service-dates';
import { LegalBasisForm } from '../../../components/legal-basis/legal-basis-form.tsx';
import { useAppSelector } from '../../../lib/store.ts';
import { selectIsAdmin } from '../../../lib/session.ts';
import {
  useClearCampaignLegalBasisMutation,
  useSetCampaignLegalBasisMutation,
} from '../api/campaigns-api.ts';
import styles from './campaign-detail.module.css';

/**
 * The legal basis the campaign's records follow, in a line; an ADMIN may give the campaign its own
 * (over its kind's, set on the PDF Editor screen).
 */
export function CampaignLegalBasis({ campaignId, basis }: { campaignId: string; basis: LegalBasis | null }) {
  const isAdmin = useAppSelector(selectIsAdmin);
  const [save, { isLoading: saving }] = useSetCampaignLegalBasisMutation();
  const [clear, { isLoading: clearing }] = useClearCampaignLegalBasisMutation();
  const own = basis?.source === 'campaign' ? basis : null;
  return (
    <>
      <p className={styles.notServiceable}>
        {basis
          ? `Legal basis: ${basis.label}, ${basis.periodDays} days to respond after service${own ? ' (this campaign’s own)' : ''}.`
          : 'No legal basis is set for these records, so they have no respond-by date. An ADMIN sets it on the PDF Editor screen.'}
      </p>
      {isAdmin && (
        <details>
          <summary>Set this campaign’s own legal basis</summary>
          <LegalBasisForm
            key={own?.updatedAt ?? 'none'}
            title="This campaign"
            basis={own}
            noneLabel="Follow the record kind’s legal basis"
            busy={saving || clearing}
            save={(body) => save({ id: campaignId, body }).unwrap()}
            clear={() => clear({ id: campaignId }).unwrap()}
          />
        </details>
      )}
    </>
  );
}
