import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LegalBasis } from '@notice-desk/contract/service-dates';
import {
  adminUser,
  jsonResponse,
  plainUser,
  renderWithApp,
  sessionOf,
} from '../../../testing/test-utils.tsx';
import { CampaignLegalBasis } from './campaign-legal-basis.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const kindBasis: LegalBasis = {
  basis: 'ni-138',
  label: 'NI Act s.138',
  periodDays: 15,
  servedWhen: 'first-event',
  source: 'kind',
  updatedAt: '2026-11-29T00:00:00.000Z',
};

function fakeApi() {
  const changes: { method: string; path: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      changes.push({
        method: request.method,
        path: new URL(request.url).pathname,
        body: request.method === 'PUT' ? await request.json() : null,
      });
      return jsonResponse(200, { campaignId: 'campaign-1', basis: kindBasis });
    }),
  );
  return changes;
}

const show = (admin: boolean, basis: LegalBasis | null) =>
  renderWithApp(<CampaignLegalBasis campaignId="campaign-1" basis={basis} />, {
    path: '/campaign/notice/campaign-1',
    session: sessionOf(admin ? adminUser : plainUser),
  });

describe('CampaignLegalBasis', () => {
  it('says which basis the records follow, and says how to set one when there is none', () => {
    fakeApi();
    show(false, kindBasis);
    expect(screen.getByText('Legal basis: NI Act s.138, 15 days to respond after service.')).toBeTruthy();
    // Only an ADMIN may give the campaign its own.
    expect(screen.queryByText('Set this campaign’s own legal basis')).toBeNull();
  });

  it('lets an ADMIN give the campaign its own basis, and follow the kind’s again', async () => {
    const changes = fakeApi();
    show(true, null);
    expect(screen.getByText(/No legal basis is set for these records/)).toBeTruthy();
    await userEvent.click(screen.getByText('Set this campaign’s own legal basis'));
    const form = screen.getByRole('form', { name: 'This campaign' });
    await userEvent.selectOptions(within(form).getByLabelText('Legal basis'), 'sarfaesi-13-2');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() =>
      expect(changes).toEqual([
        { method: 'PUT', path: '/api/legal-basis/campaigns/campaign-1', body: { basis: 'sarfaesi-13-2' } },
      ]),
    );
    await userEvent.selectOptions(within(form).getByLabelText('Legal basis'), '');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() =>
      expect(changes[1]).toEqual({
        method: 'DELETE',
        path: '/api/legal-basis/campaigns/campaign-1',
        body: null,
      }),
    );
  });
});
