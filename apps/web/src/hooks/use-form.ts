import { zodResolver } from '@hookform/resolvers/zod';
import { useLayoutEffect, useRef, useState, type BaseSyntheticEvent } from 'react';
import {
  useForm,
  type DefaultValues,
  type FieldErrors,
  type FieldValues,
  type Path,
  type Resolver,
} from 'react-hook-form';
import type { z } from 'zod';

/** Messages keyed by field, as a server's 400 names them. */
export type FieldMessages<TValues> = Partial<Record<Path<TValues>, string>>;

/**
 * Each message about a field, by the field's path ('steps.3.after'), however deep it is nested; a
 * list's own message (react-hook-form's `steps.root`) under the list's name. The form's own message
 * (`root`) names no field and is left out.
 */
export function fieldMessages<TValues extends FieldValues>(errors: FieldErrors<TValues>): [string, string][] {
  const messages: [string, string][] = [];
  const visit = (node: unknown, path: string) => {
    if (typeof node !== 'object' || node === null) return;
    if (typeof (node as { type?: unknown }).type === 'string') {
      messages.push([path, String((node as { message?: unknown }).message ?? '')]);
      return;
    }
    for (const [key, inner] of Object.entries(node)) {
      if (key === 'ref') continue;
      if (key === 'root') {
        if (path) visit(inner, path);
      } else visit(inner, path ? `${path}.${key}` : key);
    }
  };
  visit(errors, '');
  return messages;
}

type SchemaFormOptions<TValues extends FieldValues> = {
  defaultValues: TValues;
  /**
   * The contract's schema of each part the user submits on its own: a wizard's steps, in order,
   * or the one schema of a single form.
   */
  parts: readonly z.ZodType[];
};

/**
 * Validates against the parts the user has tried to submit, and nothing before: a part's messages
 * show from its first Next or Save on, and each edit then checks its field again.
 */
function checkedParts<TValues extends FieldValues>(parts: readonly z.ZodType[]) {
  const checked = new Set<number>();
  // raw: the values go on as typed; each form builds its request body from them. A part may read
  // them through a preprocess (its input is then unknown to TypeScript): they are the form's values.
  const resolvers = parts.map((schema) =>
    zodResolver(schema as z.ZodType<unknown, TValues>, undefined, { raw: true }),
  );
  const resolver: Resolver<TValues> = async (values, context, options) => {
    const results = await Promise.all([...checked].map((part) => resolvers[part]!(values, context, options)));
    const errors: FieldErrors<TValues> = Object.assign({}, ...results.map((result) => result.errors));
    return Object.keys(errors).length > 0 ? { values: {}, errors } : { values, errors: {} };
  };
  return {
    resolver,
    check: (part: number) => void checked.add(part),
    uncheckAll: () => checked.clear(),
  };
}

/**
 * A react-hook-form form on the contract's zod schemas, with the product's validation habit:
 * messages show under their fields once the user tried to submit, then follow the values, so a
 * message goes away once its field is filled; a server's message for a field stays until that
 * field is edited. Keyboard and screen-reader users are taken to the first field to fix, whether
 * the browser or the server found it: `showFieldErrors` is the one path for both.
 */
export function useSchemaForm<TValues extends FieldValues>({
  defaultValues,
  parts,
}: SchemaFormOptions<TValues>) {
  const [validation] = useState(() => checkedParts<TValues>(parts));
  const methods = useForm<TValues>({
    defaultValues: defaultValues as DefaultValues<TValues>,
    resolver: validation.resolver,
    // Each edit checks its field again (against the checked parts only) and drops a server's message.
    mode: 'onChange',
    shouldFocusError: false,
  });
  const formRef = useRef<HTMLFormElement>(null);
  const [focusRequest, setFocusRequest] = useState<{ names: readonly string[] } | null>(null);

  // Focus moves once the field is on screen (a wizard renders the field's step first), in that
  // same commit: react-hook-form's setFocus waits a timer, which a quick keyboard user can outrun.
  // Of several fields, the first on screen (a group of checkboxes by its first).
  useLayoutEffect(() => {
    if (!focusRequest) return;
    const controls = [...(formRef.current?.elements ?? [])];
    const field = controls.find((control) => focusRequest.names.includes(control.getAttribute('name') ?? ''));
    if (field instanceof HTMLElement) field.focus();
  }, [focusRequest]);

  /** Moves focus to the field, once it is rendered. */
  const focusField = (name: Path<TValues>) => setFocusRequest({ names: [name] });

  /** Shows messages under their fields (a server's answer) and moves focus to the first of them. */
  const showFieldErrors = (messages: FieldMessages<TValues>) => {
    const names = Object.keys(messages) as Path<TValues>[];
    for (const name of names) methods.setError(name, { type: 'server', message: messages[name] });
    if (names.length > 0) setFocusRequest({ names });
  };

  /**
   * Checks the part's fields (the whole form by default) and answers the first field in error,
   * in the part's order; from now on the part's messages show.
   */
  const checkPart = async (part: number, names?: readonly Path<TValues>[]) => {
    validation.check(part);
    await methods.trigger(names as Path<TValues>[] | undefined);
    return names?.find((name) => methods.getFieldState(name).error);
  };

  /** A single form's submit: every message shown, the values handed on when valid, focus to the first to fix. */
  const handleSubmit =
    (onValid: (values: TValues) => unknown) =>
    (event?: BaseSyntheticEvent): Promise<void> => {
      validation.check(0);
      return methods.handleSubmit(
        async (values) => {
          await onValid(values);
        },
        (errors) => {
          const names = fieldMessages(errors).map(([name]) => name);
          if (names.length > 0) setFocusRequest({ names });
        },
      )(event);
    };

  /** A text field's props (name, change handler, ref and message), to spread into a TextField. */
  const field = (name: Path<TValues>) => ({
    ...methods.register(name),
    error: methods.getFieldState(name, methods.formState).error?.message,
  });

  /** Back to the default values with no message shown, as before the first submit. */
  const reset = () => {
    validation.uncheckAll();
    methods.reset();
  };

  return { methods, formRef, field, handleSubmit, checkPart, showFieldErrors, focusField, reset };
}
