import toast from 'react-hot-toast';
import {
  legalBasisBody,
  statutoryBases,
  type LegalBasis,
  type LegalBasisBody,
} from '@notice-desk/contract/service-dates';
import { z } from 'zod';
import { SelectField } from '../ui/select-field.tsx';
import { TextField } from '../ui/text-field.tsx';
import { useSchemaForm } from '../../hooks/use-form.ts';
import { showApiProblem } from '../../lib/api-error.ts';

const basisOptions = [
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

type LegalBasisFormProps = {
  /** The form's name and heading: 'Notices', or the campaign's. */
  title: string;
  basis: LegalBasis | null;
  /** What choosing none means here: no respond-by date, or the kind's default. */
  noneLabel: string;
  busy: boolean;
  save: (body: LegalBasisBody) => Promise<unknown>;
  clear: () => Promise<unknown>;
};

/** A legal basis: which Act, and so how many days to respond after service; none clears it. */
export function LegalBasisForm({ title, basis, noneLabel, busy, save, clear }: LegalBasisFormProps) {
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
      if (values.basis === '') await clear();
      else await save(toBody(values));
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
    <form ref={formRef} className="panel form-stack" onSubmit={submit} noValidate aria-label={title}>
      <h3>{title}</h3>
      <SelectField
        label="Legal basis"
        options={[{ value: '', label: noneLabel }, ...basisOptions]}
        {...methods.register('basis')}
      />
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
      <button type="submit" className="button" disabled={busy}>
        Save
      </button>
    </form>
  );
}
