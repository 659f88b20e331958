import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useController, type Control } from 'react-hook-form';
import { Link } from 'react-router';
import { fieldsSchema, type FieldDefinition } from '@notice-desk/contract/record-fields';
import { useSchemaForm } from '../../hooks/use-form.ts';
import { useUnsavedChangesGuard } from '../../hooks/use-unsaved-changes-guard.ts';
import { readDraft, removeDraft, writeDraft } from '../../lib/drafts.ts';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { DateTextField } from '../ui/date-text-field.tsx';
import { TextField } from '../ui/text-field.tsx';
import { StepDots } from './step-dots.tsx';
import styles from './step-wizard.module.css';

export type WizardStep = readonly FieldDefinition[];
/** Every field of every step, by key. */
export type WizardValues = Record<string, string>;
/** Messages keyed by field, e.g. a server's answer to a submit. */
export type WizardFieldErrors = Record<string, string>;

export type StepWizardProps = {
  /** The form's accessible name, e.g. 'Credit card'. */
  label: string;
  /** The steps in order, each its fields in order (the contract's step definitions). */
  steps: readonly WizardStep[];
  /** Prefilled values (an edit); every field starts empty otherwise. */
  initialValues?: WizardValues;
  /**
   * Called with every step's values once all steps are valid. Resolve with field messages
   * (a server's 400) to show them under their fields; the wizard goes to the step of the first.
   */
  onSubmit: (values: WizardValues) => Promise<WizardFieldErrors | void>;
  /** Where Cancel goes (the list); leaving with unsaved changes asks first, there or anywhere. */
  cancelHref: string;
  /** Fields holding a date as text: each gets a date picker beside it that writes the same text. */
  dateFields?: ReadonlySet<string>;
  /**
   * Where the draft is kept in this browser (lib/drafts.ts): what is typed is saved as it is typed and
   * restored on the next visit, until the caller removes it after a submit or the user discards it.
   */
  draftKey?: string;
};

/** Every field of `steps` with its value from `source` ('' when absent), e.g. a loaded record. */
export function wizardValues(steps: readonly WizardStep[], source: object = {}): WizardValues {
  const known = source as Record<string, unknown>;
  return Object.fromEntries(
    steps.flat().map(({ key }) => [key, typeof known[key] === 'string' ? known[key] : '']),
  );
}

const stepOf = (steps: readonly WizardStep[], key: string) =>
  steps.findIndex((fields) => fields.some((field) => field.key === key));

/**
 * A record form split into steps. Next checks only the current step and moves on when it is
 * valid; Previous moves back without checking and keeps every value; the last step's Submit
 * checks every step and hands all values over at once.
 */
export function StepWizard({
  label,
  steps,
  initialValues,
  onSubmit,
  cancelHref,
  dateFields,
  draftKey,
}: StepWizardProps) {
  const schemas = useMemo(() => steps.map((fields) => fieldsSchema(fields)), [steps]);
  const [baseValues] = useState<WizardValues>(() => ({ ...wizardValues(steps), ...initialValues }));
  // Only the wizard's own fields are taken from a draft: one kept before a field was renamed drops it.
  const [draft] = useState(() => {
    const kept = draftKey ? readDraft(draftKey) : null;
    return kept && Object.fromEntries(Object.entries(kept).filter(([key]) => key in baseValues));
  });
  const [startValues] = useState<WizardValues>(() => ({ ...baseValues, ...draft }));
  const [draftRestored, setDraftRestored] = useState(
    () => draft !== null && Object.entries(draft).some(([key, value]) => baseValues[key] !== value),
  );
  const { methods, formRef, checkPart, showFieldErrors, focusField } = useSchemaForm<WizardValues>({
    defaultValues: startValues,
    parts: schemas,
  });
  const { blocker, whileSaving } = useUnsavedChangesGuard(methods.formState.isDirty, {
    keptOnUnload: draftKey !== undefined,
  });

  // Every change is kept as the draft; back to the values it started from, there is none to keep.
  useEffect(() => {
    if (!draftKey) return;
    const subscription = methods.watch((values) => {
      const typed = Object.fromEntries(
        Object.entries(values).map(([key, value]) => [key, typeof value === 'string' ? value : '']),
      );
      if (Object.entries(typed).some(([key, value]) => baseValues[key] !== value))
        writeDraft(draftKey, typed);
      else removeDraft(draftKey);
    });
    return () => subscription.unsubscribe();
  }, [draftKey, methods, baseValues]);

  const discardDraft = () => {
    if (draftKey) removeDraft(draftKey);
    methods.reset(baseValues);
    setDraftRestored(false);
    setStep(0);
  };
  const [step, setStep] = useState(0);
  const [submitting, setSubmitting] = useState(false);

  const fields = steps[step] ?? [];
  const isLast = step === steps.length - 1;
  const keysOf = (index: number) => (steps[index] ?? []).map((field) => field.key);

  const goTo = (index: number, focusKey: string | undefined) => {
    setStep(index);
    if (focusKey) focusField(focusKey);
  };

  const next = async () => {
    const firstInvalid = await checkPart(step, keysOf(step));
    if (firstInvalid) focusField(firstInvalid);
    else goTo(step + 1, steps[step + 1]?.[0]?.key);
  };

  // Focus follows the step both ways, so keyboard and screen-reader users land on the new fields.
  const previous = () => goTo(step - 1, steps[step - 1]?.[0]?.key);

  const submit = async () => {
    const values = methods.getValues();
    const invalidStep = schemas.findIndex((schema) => !schema.safeParse(values).success);
    if (invalidStep !== -1) {
      goTo(invalidStep, await checkPart(invalidStep, keysOf(invalidStep)));
      return;
    }
    setSubmitting(true);
    try {
      const fieldErrors = (await whileSaving(() => onSubmit(values))) ?? {};
      // The server's messages for the wizard's fields, shown on the step holding the first of them.
      const known = Object.entries(fieldErrors).filter(([key]) => stepOf(steps, key) !== -1);
      if (known[0]) {
        setStep(stepOf(steps, known[0][0]));
        showFieldErrors(Object.fromEntries(known));
      }
    } finally {
      setSubmitting(false);
    }
  };

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    if (isLast) void submit();
    else void next();
  };

  return (
    <form ref={formRef} className={styles.wizard} aria-label={label} onSubmit={handleSubmit} noValidate>
      {draftRestored && (
        <div className={styles.draft} role="status">
          <span>Your unsaved draft is restored.</span>
          <button type="button" className="button button-secondary button-small" onClick={discardDraft}>
            Discard draft
          </button>
        </div>
      )}
      <StepDots count={steps.length} current={step} />
      <div className={styles.fields}>
        {fields.map((field) => (
          <WizardField
            key={field.key}
            field={field}
            control={methods.control}
            datePicker={dateFields?.has(field.key) ?? false}
          />
        ))}
        {fields
          .filter((field) => field.suggestions)
          .map((field) => (
            <datalist key={field.key} id={`${field.key}-suggestions`}>
              {field.suggestions?.map((suggestion) => (
                <option key={suggestion} value={suggestion} />
              ))}
            </datalist>
          ))}
      </div>
      <div className={styles.buttons}>
        <Link className={`button button-secondary ${styles.cancel}`} to={cancelHref}>
          Cancel
        </Link>
        {step > 0 && (
          <button type="button" className="button button-secondary" onClick={previous}>
            Previous
          </button>
        )}
        {isLast ? (
          <button key="submit" type="submit" className="button button-primary" disabled={submitting}>
            Submit
          </button>
        ) : (
          <button key="next" type="submit" className="button button-primary">
            Next
          </button>
        )}
      </div>
      <ConfirmDialog
        open={blocker.state === 'blocked'}
        question={
          draftKey
            ? 'Leave this form? What you typed is kept as a draft in this browser until you submit or discard it.'
            : 'Leave this form? What you typed has not been saved and will be lost.'
        }
        confirmLabel="Leave"
        cancelLabel="Stay"
        onConfirm={() => blocker.proceed?.()}
        onCancel={() => blocker.reset?.()}
      />
    </form>
  );
}

type WizardFieldProps = {
  field: FieldDefinition;
  control: Control<WizardValues>;
  /** A date kept as text: a date picker beside it writes the same text. */
  datePicker: boolean;
};

/** One field of the current step, its value and message kept by the wizard's form. */
function WizardField({ field, control, datePicker }: WizardFieldProps) {
  const {
    field: { value, onChange, onBlur, ref },
    fieldState: { error },
  } = useController({ name: field.key, control });
  const common = {
    ref,
    name: field.key,
    label: field.label,
    'aria-required': field.required ? true : undefined,
    value,
    error: error?.message,
    onBlur,
  };
  return datePicker ? (
    <DateTextField {...common} onValueChange={onChange} />
  ) : (
    <TextField
      {...common}
      list={field.suggestions ? `${field.key}-suggestions` : undefined}
      hint={field.note ? (field.note(value) ?? '') : undefined}
      onChange={onChange}
    />
  );
}
