import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { fieldsSchema, type FieldDefinition } from '@notice-desk/contract/record-fields';
import { useUnsavedChangesGuard } from '../../hooks/use-unsaved-changes-guard.ts';
import { schemaFieldErrors } from '../../utils/schema-field-errors.ts';
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
}: StepWizardProps) {
  const schemas = useMemo(() => steps.map((fields) => fieldsSchema(fields)), [steps]);
  const [startValues] = useState<WizardValues>(() => ({ ...wizardValues(steps), ...initialValues }));
  const [values, setValues] = useState<WizardValues>(startValues);
  const unsaved = Object.keys(values).some((key) => values[key] !== startValues[key]);
  const { blocker, whileSaving } = useUnsavedChangesGuard(unsaved);
  const [step, setStep] = useState(0);
  // Steps whose messages show: those the user tried to leave with Next or Submit.
  const [checkedSteps, setCheckedSteps] = useState<ReadonlySet<number>>(() => new Set());
  const [serverErrors, setServerErrors] = useState<WizardFieldErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const [focusRequest, setFocusRequest] = useState<{ key: string } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  const fields = steps[step] ?? [];
  const isLast = step === steps.length - 1;
  const stepErrors = (index: number) => schemaFieldErrors(schemas[index]!, values);
  const errors: WizardFieldErrors = {
    ...serverErrors,
    ...(checkedSteps.has(step) ? stepErrors(step) : {}),
  };

  // Focus moves once the requested field is on screen (a new step renders first).
  useEffect(() => {
    if (!focusRequest) return;
    const field = formRef.current?.elements.namedItem(focusRequest.key);
    if (field instanceof HTMLElement) field.focus();
  }, [focusRequest]);

  const markChecked = (...indexes: number[]) =>
    setCheckedSteps((current) => new Set([...current, ...indexes]));

  const goTo = (index: number, focusKey: string | undefined) => {
    setStep(index);
    if (focusKey) setFocusRequest({ key: focusKey });
  };

  const next = () => {
    markChecked(step);
    const [firstInvalid] = Object.keys(stepErrors(step));
    if (firstInvalid) {
      setFocusRequest({ key: firstInvalid });
      return;
    }
    goTo(step + 1, steps[step + 1]?.[0]?.key);
  };

  // Focus follows the step both ways, so keyboard and screen-reader users land on the new fields.
  const previous = () => goTo(step - 1, steps[step - 1]?.[0]?.key);

  const submit = async () => {
    const invalidStep = steps.findIndex((_fields, index) => Object.keys(stepErrors(index)).length > 0);
    if (invalidStep !== -1) {
      markChecked(invalidStep);
      goTo(invalidStep, Object.keys(stepErrors(invalidStep))[0]);
      return;
    }
    setSubmitting(true);
    try {
      const fieldErrors = (await whileSaving(() => onSubmit(values))) ?? {};
      const [firstKey] = Object.keys(fieldErrors).filter((key) => stepOf(steps, key) !== -1);
      if (firstKey) {
        setServerErrors(fieldErrors);
        goTo(stepOf(steps, firstKey), firstKey);
      }
    } finally {
      setSubmitting(false);
    }
  };

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    if (isLast) void submit();
    else next();
  };

  const setValue = (key: string, value: string) => {
    setValues((current) => ({ ...current, [key]: value }));
    setServerErrors((current) => {
      if (!(key in current)) return current;
      const rest = { ...current };
      delete rest[key];
      return rest;
    });
  };

  return (
    <form ref={formRef} className={styles.wizard} aria-label={label} onSubmit={handleSubmit} noValidate>
      <StepDots count={steps.length} current={step} />
      <div className={styles.fields}>
        {fields.map((field) =>
          dateFields?.has(field.key) ? (
            <DateTextField
              key={field.key}
              name={field.key}
              label={field.label}
              aria-required={field.required ? true : undefined}
              value={values[field.key] ?? ''}
              error={errors[field.key]}
              onValueChange={(text) => setValue(field.key, text)}
            />
          ) : (
            <TextField
              key={field.key}
              name={field.key}
              label={field.label}
              aria-required={field.required ? true : undefined}
              value={values[field.key] ?? ''}
              error={errors[field.key]}
              list={field.suggestions ? `${field.key}-suggestions` : undefined}
              hint={field.note ? (field.note(values[field.key] ?? '') ?? '') : undefined}
              onChange={(event) => setValue(field.key, event.target.value)}
            />
          ),
        )}
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
        question="Leave this form? What you typed has not been saved and will be lost."
        confirmLabel="Leave"
        cancelLabel="Stay"
        onConfirm={() => blocker.proceed?.()}
        onCancel={() => blocker.reset?.()}
      />
    </form>
  );
}
