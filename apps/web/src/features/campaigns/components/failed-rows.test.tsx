import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FailedRow, FailedRowsPage } from '@notice-desk/contract/failed-rows';
import { stubFetch } from '../../../testing/stub-fetch.ts';
import { jsonResponse, plainUser, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { FailedRows } from './failed-rows.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const failed: FailedRow = {
  recordId: 'record-1',
  channel: 'email',
  status: 'bounced',
  custName: 'Meena Shah',
  reference: 'LN100013',
  recipient: 'meena@example',
  reason: 'The mail server refused the message: 550 Mailbox unavailable',
  failedAt: '2026-11-28T10:00:00.000Z',
  emailId: 'meena@example',
  custMobileNo: '9800000002',
  unchanged: true,
};

/** The failed-rows list of one row, and Edit and resend answering `answers` in turn. */
function failedRowsServer(answers: Response[]) {
  return stubFetch(({ method, path }) => {
    if (method === 'POST' && path.endsWith('/edit-and-resend')) return answers.shift()!;
    const page: FailedRowsPage = { items: [failed], total: 1, failed: 1, unchanged: 1 };
    return jsonResponse(200, page);
  });
}

const sent = {
  message: 'Saved and resent by e-mail.',
  changed: ['emailId'],
  send: { message: 'Send Mail Successfully.', sent: 1, failed: 0, queued: 0, skipped: 0, ignored: 0 },
};

const renderRows = () =>
  renderWithApp(<FailedRows type="notice" campaignId="campaign-1" show="all" onShowChange={() => {}} />, {
    session: sessionOf(plainUser),
  });

describe('FailedRows', () => {
  it('shows the loan number, where the notice went and why it failed', async () => {
    failedRowsServer([]);
    renderRows();
    const row = await screen.findByRole('listitem');
    expect(row.textContent).toContain('LN100013');
    expect(row.textContent).toContain('meena@example (unchanged)');
    expect(row.textContent).toContain('550 Mailbox unavailable');
    expect(screen.getByText('1 failed row; 1 still has the address that failed.')).toBeTruthy();
  });

  it('refuses an address that cannot be served, then saves and resends on the failed channel', async () => {
    const server = failedRowsServer([jsonResponse(200, sent)]);
    const user = userEvent.setup();
    renderRows();
    await user.click(await screen.findByRole('button', { name: /Edit and resend/ }));
    const form = screen.getByRole('form', { name: 'Edit and resend' });
    await user.click(within(form).getByRole('button', { name: 'Save and resend by E-mail' }));
    expect(within(form).getByText('Cannot send here: no dot in the domain.')).toBeTruthy();
    expect(server.requests.some((r) => r.method === 'POST')).toBe(false);

    await user.clear(within(form).getByLabelText('E-mail'));
    await user.type(within(form).getByLabelText('E-mail'), 'meena.shah@example.com');
    await user.click(within(form).getByRole('button', { name: 'Save and resend by E-mail' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit and resend' })).toBeNull());
    const post = server.requests.find((r) => r.method === 'POST')!;
    expect(post.path).toBe('/api/campaigns/campaign-1/records/record-1/edit-and-resend');
    expect(await post.request.json()).toEqual({
      channel: 'email',
      emailId: 'meena.shah@example.com',
      custMobileNo: '9800000002',
    });
  });

  it('asks when the send asks (bounced before), and sends anyway with confirmBounced', async () => {
    const bounced = jsonResponse(409, {
      statusCode: 409,
      code: 'BOUNCED_BEFORE',
      message: '1 address bounced or failed before. Send to it anyway?',
      error: { bouncedBefore: '1' },
    });
    const server = failedRowsServer([bounced, jsonResponse(200, sent)]);
    const user = userEvent.setup();
    renderRows();
    await user.click(await screen.findByRole('button', { name: /Edit and resend/ }));
    const form = screen.getByRole('form', { name: 'Edit and resend' });
    await user.clear(within(form).getByLabelText('E-mail'));
    await user.type(within(form).getByLabelText('E-mail'), 'meena@example.com');
    await user.click(within(form).getByRole('button', { name: 'Save and resend by E-mail' }));
    expect((await within(form).findByRole('alert')).textContent).toMatch(/bounced or failed before/);
    await user.click(within(form).getByRole('button', { name: 'Send anyway' }));
    await waitFor(() => expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(2));
    const second = server.requests.filter((r) => r.method === 'POST')[1]!;
    expect(await second.request.json()).toMatchObject({ confirmBounced: true });
  });
});
