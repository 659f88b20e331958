import { screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { creditCardFields, creditCardSteps } from '@notice-desk/contract/credit-card';
import { creditCardRoutes, fakeRecordsApi, sampleRecord } from '../../../testing/fake-records-api.ts';
import { jsonResponse, plainUser, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { CreditCardForm } from './credit-card-form.tsx';
import { EditCreditCard } from './edit-credit-card.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const session = sessionOf(plainUser);
const input = (label: string) => screen.getByLabelText(label, { selector: 'input' }) as HTMLInputElement;

async function fillEveryStep(user: UserEvent) {
  for (const fields of creditCardSteps) {
    for (const field of fields) {
      await user.click(input(field.label));
      await user.paste(`${field.key} new`);
    }
    const last = fields === creditCardSteps.at(-1);
    await user.click(screen.getByRole('button', { name: last ? 'Submit' : 'Next' }));
  }
}

describe('CreditCardForm', () => {
  it("posts every field, shows 'Credit Card Created Successfully.' and hands back to the route", async () => {
    const api = fakeRecordsApi(creditCardRoutes, []);
    const success = vi.spyOn(toast, 'success');
    const onSaved = vi.fn();
    const user = userEvent.setup();
    renderWithApp(<CreditCardForm onSaved={onSaved} />, { session });

    await fillEveryStep(user);

    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(success).toHaveBeenCalledWith('Credit Card Created Successfully.');
    const post = api.requests.find((request) => request.method === 'POST');
    expect(post?.path).toBe('/api/credit-cards');
    expect(post?.body).toEqual(
      Object.fromEntries(creditCardFields.map((field) => [field.key, `${field.key} new`])),
    );
  });

  it("shows the server's field messages under their fields, on their step", async () => {
    vi.stubGlobal('fetch', async () =>
      jsonResponse(400, {
        statusCode: 400,
        code: 'VALIDATION',
        message: 'Some fields are not valid.',
        error: { maskNo: 'Mask No is required!!' },
      }),
    );
    const onSaved = vi.fn();
    const user = userEvent.setup();
    renderWithApp(<CreditCardForm onSaved={onSaved} />, { session });

    await fillEveryStep(user);

    await waitFor(() => expect(screen.getByText('Mask No is required!!')).toBeTruthy());
    expect(screen.getByText('Step 1 of 3')).toBeTruthy();
    expect(input('Mask No').getAttribute('aria-invalid')).toBe('true');
    expect(onSaved).not.toHaveBeenCalled();
  });
});

describe('EditCreditCard', () => {
  const stored = sampleRecord(creditCardFields, 7, { custName: 'Asha Rao' });

  it("prefills the wizard once the record loads, puts the merged data, and shows 'Credit Card Updated Successfully.'", async () => {
    const api = fakeRecordsApi(creditCardRoutes, [stored]);
    const success = vi.spyOn(toast, 'success');
    const onSaved = vi.fn();
    const user = userEvent.setup();
    renderWithApp(<EditCreditCard id={stored._id} onSaved={onSaved} />, { session });

    expect(screen.getByRole('status').textContent).toBe('Loading the credit card');
    await waitFor(() => expect(input('Customer Name').value).toBe('Asha Rao'));
    await user.clear(input('Customer Name'));
    await user.type(input('Customer Name'), 'Asha R. Rao');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(input('Camp Date').value).toBe('campDate 7');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(success).toHaveBeenCalledWith('Credit Card Updated Successfully.');
    const put = api.requests.find((request) => request.method === 'PUT');
    expect(put?.path).toBe(`/api/credit-cards/${stored._id}`);
    const expected = Object.fromEntries(creditCardFields.map((field) => [field.key, stored[field.key]]));
    expect(put?.body).toEqual({ ...expected, custName: 'Asha R. Rao' });
  });

  it('says the credit card was not found, with a way back to the list', async () => {
    fakeRecordsApi(creditCardRoutes, []);
    renderWithApp(<EditCreditCard id="00000000-0000-4000-8000-000000000099" onSaved={() => {}} />, {
      session,
    });

    expect((await screen.findByRole('alert')).textContent).toContain('Credit card not found.');
    expect(screen.getByRole('link', { name: 'Back to Credit Card' }).getAttribute('href')).toBe(
      '/forms/credit-card',
    );
    expect(screen.queryByRole('form')).toBeNull();
  });
});
