import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { creditCardFields, creditCardSteps } from '@notice-desk/contract/credit-card';
import { creditCardRoutes, fakeRecordsApi, sampleRecord } from '../../../testing/fake-records-api.ts';
import { plainUser, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { EditCreditCard } from './edit-credit-card.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const input = (label: string) => screen.getByLabelText(label, { selector: 'input' }) as HTMLInputElement;
/** The note under a field, a live region beside it. */
const noteOf = (field: HTMLInputElement) =>
  field.closest('div')?.querySelector('[aria-live="polite"]')?.textContent;

describe('the credit-card wizard’s language', () => {
  it('is the last field of the last step, prefilled, says which template prints and is put back', async () => {
    const stored = sampleRecord(creditCardFields, 5, { language: 'tamil' });
    const api = fakeRecordsApi(creditCardRoutes, [stored]);
    const onSaved = vi.fn();
    const user = userEvent.setup();
    renderWithApp(<EditCreditCard id={stored._id} onSaved={onSaved} />, { session: sessionOf(plainUser) });
    await waitFor(() => expect(input('Hub').value).toBe('hub 5'));
    expect(screen.queryByLabelText('Language')).toBeNull();
    for (let step = 1; step < creditCardSteps.length; step += 1)
      await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(creditCardSteps.at(-1)!.at(-1)!.key).toBe('language');
    expect(input('Language').value).toBe('tamil');
    expect(noteOf(input('Language'))).toBe('Prints the Tamil template where there is one, else the default.');
    await user.clear(input('Language'));
    await user.type(input('Language'), 'Tamil Nadu');
    expect(noteOf(input('Language'))).toBe(
      '‘Tamil Nadu’ is not a language the templates know: this record prints the default template.',
    );
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(api.requests.find((request) => request.method === 'PUT')?.body).toMatchObject({
      language: 'Tamil Nadu',
    });
  });
});
