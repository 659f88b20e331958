import type { CampaignType } from '@notice-desk/contract/campaigns';
import type { LegalBasis } from '@notice-desk/contract/service-dates';
import { LegalBasisForm } from '../../../components/legal-basis/legal-basis-form.tsx';
import {
  useClearLegalBasisMutation,
  useGetLegalBasisQuery,
  useSetLegalBasisMutation,
} from '../api/legal-basis-api.ts';
import { kindLabels } from './kind-template-form.tsx';

/** One record kind's default, saved for the kind. */
function KindLegalBasis({ kind, basis }: { kind: CampaignType; basis: LegalBasis | null }) {
  const [save, { isLoading: saving }] = useSetLegalBasisMutation();
  const [clear, { isLoading: clearing }] = useClearLegalBasisMutation();
  return (
    <LegalBasisForm
      title={kindLabels[kind]}
      basis={basis}
      noneLabel="None set (no respond-by date)"
      busy={saving || clearing}
      save={(body) => save({ kind, body }).unwrap()}
      clear={() => clear({ kind }).unwrap()}
    />
  );
}

/**
 * The PDF Editor's legal basis per record kind (ADMIN only, like the screen): the response period
 * each notice starts, which gives every record its respond-by date. A campaign may have its own.
 */
export function LegalBasisSettings() {
  const { data } = useGetLegalBasisQuery();
  if (!data) return null;
  const deemed =
    data.deemedServiceDays > 0
      ? `A record counts as served on the first delivery, read or acknowledgement on any channel; if none comes, ${data.deemedServiceDays} days after it was first sent (DEEMED_SERVICE_DAYS).`
      : 'A record counts as served on the first delivery, read or acknowledgement on any channel (DEEMED_SERVICE_DAYS=0: never deemed).';
  return (
    <section aria-label="Legal basis and response period" className="form-stack">
      <h2>Legal basis and response period</h2>
      <p>{deemed}</p>
      {(['notice', 'credit-card'] as const).map((kind) => {
        const basis = data.kinds[kind];
        return <KindLegalBasis key={`${kind}:${basis?.updatedAt ?? 'none'}`} kind={kind} basis={basis} />;
      })}
    </section>
  );
}
