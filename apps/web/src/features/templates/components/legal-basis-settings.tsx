import toast from 'react-hot-toast';
import type { CampaignType } from '@notice-desk/contract/campaigns';
import {
  legalBasisBody,
  statutoryBases,
  type LegalBasis,
  type LegalBasisBody,
} from '@notice-desk/contract/service-dates';
import { z } from 'zod';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useSchemaForm } from '../../../hooks/use-form.ts';
import { showApiProblem } from '../../../lib/api-error.ts';
import {
  useClearLegalBasisMutation,
  useGetLegalBasisQuery,
  useSetLegalBasisMutation,
} from '../api/legal-basis-api.ts';

const kindLabels: Record<CampaignType, string> = { notice: 'Notices', 'credit-card': 'Credit cards' };

const basisOptions = [
  { value: '', label: 'None set (no respond-by date)' },
  {
    value: 'ni-138',
    label: `${statutoryBases['ni-138'].label}: ${statutoryBases['ni-138'].periodDays} days from service`,
  },
  {
    value: 'sarfaesi-13-2',
    label: `${statutoryBases['sarfaesi-13-2'].label}: ${statutoryBases['sarfaesi-13-2'].periodDays} days from service`,
  },
  { value: 'other', label: 'Other (conciliation, …): days you set' },
] as const;

type LegalBasisValues = { basis: string; periodDays: string; label: string };

/** The form's values as the body they become: days and label only for 'other'. */
function toBody(values: LegalBasisValues): LegalBasisBody {
  if (values.basis !== 'other') return { basis: values.basis as LegalBasisBody['basis'] };
  const days = values.periodDays.trim();
  return {
    basis: 'other',
    // Text that is no number goes as it is, so the message says what is wrong with it.
    periodDays: (days === '' ? undefined : /^\d+$/.test(days) ? Number(days) : days) as number,
    label: values.label,
  };
}

// None set is a choice of its own (it clears the basis); anything else is checked as the body it becomes.
const legalBasisForm = z.preprocess(
  (values) => toBody(values as LegalBasisValues),
  z.union([z.object({ basis: z.literal('') }), legalBasisBody]),
);

/** One record kind's default legal basis: which Act, and so how many days to respond after service. */
function LegalBasisForm({ kind, basis }: { kind: CampaignType; basis: LegalBasis | null }) {
  const [save, { isLoading: saving }] = useSetLegalBasisMutation();
  const [clear, { isLoading: clearing }] = useClearLegalBasisMutation();
  const { methods, formRef, field, handleSubmit, showFieldErrors } = useSchemaForm<LegalBasisValues>({
    defaultValues: {
      basis: basis?.basis ?? '',
      periodDays: basis?.basis === 'other' ? String(basis.periodDays) : '',
      label: basis?.basis === 'other' ? basis.label : '',
    },
    parts: [legalBasisForm],
  });
  const chosen = methods.watch('basis');
  const submit = handleSubmit(async (values) => {
    try {
      if (values.basis === '') await clear({ kind }).unwrap();
      else await save({ kind, body: toBody(values) }).unwrap();
      toast.success('Updated Successfully.');
    } catch (error) {
      showApiProblem(error, {
        fields: ['basis', 'periodDays', 'label'],
        onFieldErrors: showFieldErrors,
        fallback: 'The legal basis could not be saved. Try again.',
      });
    }
  });
  return (
    <form
      ref={formRef}
      className="panel form-stack"
      onSubmit={submit}
      noValidate
      aria-label={kindLabels[kind]}
    >
      <h3>{kindLabels[kind]}</h3>
      <SelectField label="Legal basis" options={basisOptions} {...methods.register('basis')} />
      {chosen === 'other' && (
        <>
          <TextField label="Name of the basis" hint="Such as Conciliation" {...field('label')} />
          <TextField
            label="Days to respond after service"
            inputMode="numeric"
            hint="1 to 365"
            {...field('periodDays')}
          />
        </>
      )}
      <button type="submit" className="button" disabled={saving || clearing}>
        Save
      </button>
    </form>
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
        return <LegalBasisForm key={`${kind}:${basis?.updatedAt ?? 'none'}`} kind={kind} basis={basis} />;
      })}
    </section>
  );
}
