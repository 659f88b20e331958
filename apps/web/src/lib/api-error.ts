import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import toast from 'react-hot-toast';
import { errorBody } from '@notice-desk/contract/errors';

export type ApiProblem = {
  /** Messages keyed by form field, to show under each field. */
  fieldErrors: Record<string, string>;
  /** A message for the whole request, to show as a toast; null when the server gave none. */
  message: string | null;
};

function isFetchBaseQueryError(error: unknown): error is FetchBaseQueryError {
  return typeof error === 'object' && error !== null && 'status' in error;
}

/** Reads the server's one error shape out of a failed RTK Query call (or anything else thrown). */
export function readApiProblem(error: unknown): ApiProblem {
  if (!isFetchBaseQueryError(error)) return { fieldErrors: {}, message: null };
  const body = errorBody.safeParse(error.data);
  if (!body.success) return { fieldErrors: {}, message: null };
  const detail = body.data.error;
  return typeof detail === 'string'
    ? { fieldErrors: {}, message: detail }
    : { fieldErrors: detail, message: Object.keys(detail).length ? null : body.data.message };
}

type ShowApiProblemOptions<TField extends string> = {
  /** The fields the form shows messages under; messages for other fields become a toast. */
  fields: readonly TField[];
  onFieldErrors: (errors: Partial<Record<TField, string>>) => void;
  /** The toast when the server gave no message (network failure, time-out, unreadable answer). */
  fallback: string;
};

/** Shows a failed call the spec's way: field messages under their fields, anything else as an error toast. */
export function showApiProblem<TField extends string>(
  error: unknown,
  { fields, onFieldErrors, fallback }: ShowApiProblemOptions<TField>,
): void {
  const { fieldErrors, message } = readApiProblem(error);
  const known: Partial<Record<TField, string>> = {};
  const other: string[] = [];
  for (const [field, fieldMessage] of Object.entries(fieldErrors)) {
    if ((fields as readonly string[]).includes(field)) known[field as TField] = fieldMessage;
    else other.push(fieldMessage);
  }
  const anyKnown = Object.keys(known).length > 0;
  if (anyKnown) onFieldErrors(known);
  const toastMessage = message ?? (other.length > 0 ? other.join('\n') : anyKnown ? null : fallback);
  if (toastMessage) toast.error(toastMessage);
}

/** A failed call with no form to show field messages in: everything the server said becomes one error toast. */
export function toastApiProblem(error: unknown, fallback: string): void {
  showApiProblem(error, { fields: [], onFieldErrors: () => {}, fallback });
}

/** The server has no such record for this user: unknown (404), or an id that cannot be one (400). */
export function isMissingRecord(error: unknown): boolean {
  return isFetchBaseQueryError(error) && (error.status === 404 || error.status === 400);
}
