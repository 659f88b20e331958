import { useState, type ChangeEvent, type FormEvent } from 'react';

export type FormValues = Record<string, string | boolean>;
export type FieldErrors<TValues extends FormValues> = Partial<Record<keyof TValues & string, string>>;

type UseFormOptions<TValues extends FormValues> = {
  initialValues: TValues;
  /** Messages keyed by field; empty when the values may be sent. */
  validate: (values: TValues) => FieldErrors<TValues>;
};

/**
 * Form state with the product's validation habit: messages show under their fields after the
 * first submit and follow the values from then on, so a message goes away once its field is filled.
 * A server's message for a field stays until that field is edited.
 */
export function useForm<TValues extends FormValues>({ initialValues, validate }: UseFormOptions<TValues>) {
  const [values, setValues] = useState(initialValues);
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors<TValues>>({});

  const errors: FieldErrors<TValues> = { ...serverErrors, ...(submitted ? validate(values) : {}) };

  function setValue<TName extends keyof TValues & string>(name: TName, value: TValues[TName]) {
    setValues((current) => ({ ...current, [name]: value }));
    setServerErrors((current) => {
      if (!(name in current)) return current;
      const rest = { ...current };
      delete rest[name];
      return rest;
    });
  }

  /** A text field's name, value, message and change handler, to spread into a TextField. */
  function field<TName extends keyof TValues & string>(name: TName) {
    return {
      name,
      value: String(values[name] ?? ''),
      error: errors[name],
      onChange: (event: ChangeEvent<HTMLInputElement>) =>
        setValue(name, event.target.value as TValues[TName]),
    };
  }

  function handleSubmit(onValid: (values: TValues) => void | Promise<void>) {
    return (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      setSubmitted(true);
      setServerErrors({});
      const found = Object.keys(validate(values));
      if (found.length === 0) {
        void onValid(values);
        return;
      }
      // Take keyboard and screen-reader users straight to the first field to fix.
      const firstInvalid = event.currentTarget.elements.namedItem(found[0] ?? '');
      if (firstInvalid instanceof HTMLElement) firstInvalid.focus();
    };
  }

  function reset() {
    setValues(initialValues);
    setSubmitted(false);
    setServerErrors({});
  }

  return { values, errors, submitted, setValue, field, handleSubmit, setServerErrors, reset };
}
