import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LegalBasisSettings as Settings } from '@notice-desk/contract/service-dates';
import { adminUser, jsonResponse, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { LegalBasisSettings } from './legal-basis-settings.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const settings: Settings = {
  kinds: {
    notice: {
      basis: 'ni-138',
      label: 'NI Act s.138',
      periodDays: 15,
      servedWhen: 'first-event',
      source: 'kind',
      updatedAt: '2026-11-29T00:00:00.000Z',
    },
    'credit-card': null,
  },
  deemedServiceDays: 30,
};

/** The settings API: answers the settings, and each change with `answer` (recorded). */
function fakeApi(answer: (body: unknown) => Response = () => jsonResponse(200, settings.kinds.notice)) {
  const changes: { method: string; path: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      const url = new URL(request.url);
      if (request.method === 'GET') return jsonResponse(200, settings);
      const body = request.method === 'PUT' ? await request.json() : null;
      changes.push({ method: request.method, path: url.pathname, body });
      return answer(body);
    }),
  );
  return changes;
}

const show = () =>
  renderWithApp(<LegalBasisSettings />, {
    path: '/templates/email-templates',
    session: sessionOf(adminUser),
  });

describe('LegalBasisSettings', () => {
  it('shows each kind’s basis and the deemed-service rule', async () => {
    fakeApi();
    show();
    const notices = await screen.findByRole('form', { name: 'Notices' });
    expect((within(notices).getByLabelText('Legal basis') as HTMLSelectElement).value).toBe('ni-138');
    const cards = screen.getByRole('form', { name: 'Credit cards' });
    expect((within(cards).getByLabelText('Legal basis') as HTMLSelectElement).value).toBe('');
    expect(screen.getByText(/if none comes, 30 days after it was first sent/)).toBeTruthy();
    // The days and the name are asked only for a basis of the office's own.
    expect(within(notices).queryByLabelText('Days to respond after service')).toBeNull();
  });

  it('asks for the days and a name for another basis, and saves them as numbers', async () => {
    const changes = fakeApi();
    show();
    const cards = await screen.findByRole('form', { name: 'Credit cards' });
    await userEvent.selectOptions(within(cards).getByLabelText('Legal basis'), 'other');
    await userEvent.click(within(cards).getByRole('button', { name: 'Save' }));
    expect(await within(cards).findByText(/label is needed for 'other'/)).toBeTruthy();
    expect(within(cards).getByText(/periodDays is needed for 'other'/)).toBeTruthy();
    await userEvent.type(within(cards).getByLabelText('Days to respond after service'), '400');
    expect(await within(cards).findByText('periodDays must be from 1 to 365.')).toBeTruthy();
    expect(changes).toEqual([]);

    await userEvent.clear(within(cards).getByLabelText('Days to respond after service'));
    await userEvent.type(within(cards).getByLabelText('Days to respond after service'), '21');
    await userEvent.type(within(cards).getByLabelText('Name of the basis'), 'Conciliation');
    await userEvent.click(within(cards).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(changes).toHaveLength(1));
    expect(changes[0]).toEqual({
      method: 'PUT',
      path: '/api/legal-basis/kinds/credit-card',
      body: { basis: 'other', periodDays: 21, label: 'Conciliation' },
    });
  });

  it('clears a basis with None set, and shows the server’s refusal', async () => {
    const error = vi.spyOn(toast, 'error');
    const changes = fakeApi(() =>
      jsonResponse(403, {
        statusCode: 403,
        code: 'FORBIDDEN',
        message: 'Only an ADMIN can do this.',
        error: 'Only an ADMIN can do this.',
      }),
    );
    show();
    const notices = await screen.findByRole('form', { name: 'Notices' });
    await userEvent.selectOptions(within(notices).getByLabelText('Legal basis'), '');
    await userEvent.click(within(notices).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() =>
      expect(changes).toEqual([{ method: 'DELETE', path: '/api/legal-basis/kinds/notice', body: null }]),
    );
    await vi.waitFor(() => expect(error).toHaveBeenCalledWith('Only an ADMIN can do this.'));
  });
});
