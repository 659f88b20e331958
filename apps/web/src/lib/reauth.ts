import type { Dispatch } from '@reduxjs/toolkit';
import { reauthRequired } from './session.ts';

/**
 * Requests refused with 401 while the user works wait here for the sign-in dialog: true once the same
 * user has signed in again (the request is sent again with the new token), false when the dialog was
 * left or someone else signed in. The store settles it (lib/store.ts) from the session's actions.
 */
let waiting: { answer: Promise<boolean>; settle: (signedInAgain: boolean) => void } | null = null;

export function waitForSignIn(dispatch: Dispatch): Promise<boolean> {
  if (!waiting) {
    let settle: (signedInAgain: boolean) => void = () => {};
    const answer = new Promise<boolean>((resolve) => {
      settle = resolve;
    });
    waiting = { answer, settle };
    dispatch(reauthRequired());
  }
  return waiting.answer;
}

/** Whether a sign-in dialog is open with requests waiting on it. */
export const isWaitingForSignIn = () => waiting !== null;

export function settleSignIn(signedInAgain: boolean): void {
  const current = waiting;
  waiting = null;
  current?.settle(signedInAgain);
}
