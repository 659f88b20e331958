import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CampaignRow, SingleCampaign } from '@notice-desk/contract/campaigns';
import type { SendMailBody, SendResult } from '@notice-desk/contract/sending';
import { funnelOf } from '../../../testing/funnel.ts';
import { stubFetch } from '../../../testing/stub-fetch.ts';
import { jsonResponse, plainUser, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { CampaignDetail } from './campaign-detail.tsx';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const row = (n: number): CampaignRow => ({
  _id: `record-${n}`,
  custName: `Customer ${n}`,
  reference: `LN-${n}`,
  date: '2025-03-01T12:00:00.000Z',
  emailResponse: '-',
  whatsappResponse: '-',
});

const allSent = (body: SendMailBody): SendResult => ({
  message: 'Send Mail Successfully.',
  sent: body.data.length * 2,
  failed: 0,
  queued: 0,
  skipped: 0,
  ignored: 0,
});

type SendAnswer = (body: SendMailBody, call: number) => Response | Promise<Response>;

/** One notice campaign of `count` records; send-mail answers with `answerSend` (all sent by default). */
function campaignServer(count: number, answerSend: SendAnswer = (body) => jsonResponse(200, allSent(body))) {
  const rows = Array.from({ length: count }, (_, index) => row(index + 1));
  const sends: SendMailBody[] = [];
  const server = stubFetch(async ({ method, path, request }) => {
    if (path.endsWith('/funnel')) return jsonResponse(200, funnelOf());
    if (method === 'POST' && path === '/api/campaigns/send-mail') {
      const body = (await request.json()) as SendMailBody;
      sends.push(body);
      return answerSend(body, sends.length);
    }
    const campaign: SingleCampaign = {
      _id: 'campaign-1',
      name: 'March notices',
      type: 'notice',
      date: '2025-03-01T12:00:00.000Z',
      total: rows.length,
      imported: rows.length,
      skipped: 0,
      completedCounts: 0,
      notices: rows,
    };
    return jsonResponse(200, campaign);
  });
  const campaignLoads = () =>
    server.requests.filter(({ path }) => path === '/api/campaigns/single-campaign/campaign-1').length;
  return { ...server, sends, campaignLoads };
}

const renderDetail = () =>
  renderWithApp(<CampaignDetail type="notice" campaignId="campaign-1" />, {
    path: '/campaign/notice/campaign-1',
    session: sessionOf(plainUser),
  });

const sendButton = () => screen.getByRole('button', { name: 'Send Notice' }) as HTMLButtonElement;
const bar = () => screen.queryByRole('progressbar', { name: 'Import File Progress Bar' });
/** The line under the bar that its aria-describedby names. */
const barCaption = () => document.getElementById(bar()?.getAttribute('aria-describedby') ?? '')?.textContent;
const selectAll = () => screen.getByRole('checkbox', { name: 'Select all rows on this page' });

/** A promise the test settles, to hold a send-mail answer back. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

describe('Send Notice', () => {
  it("says 'Please select Items' and sends nothing when no record is selected", async () => {
    const server = campaignServer(3);
    const error = vi.spyOn(toast, 'error');
    const user = userEvent.setup();
    renderDetail();
    await screen.findByRole('cell', { name: 'Customer 3' });

    await user.click(sendButton());

    expect(error).toHaveBeenCalledWith('Please select Items');
    expect(server.sends).toEqual([]);
    expect(bar()).toBeNull();
  });

  it('sends 9 selected records in one request, without a bar, then refreshes the list and says so', async () => {
    const server = campaignServer(9);
    const success = vi.spyOn(toast, 'success');
    const user = userEvent.setup();
    renderDetail();
    await screen.findByRole('cell', { name: 'Customer 9' });
    expect(server.campaignLoads()).toBe(1);

    await user.click(selectAll());
    await user.click(sendButton());

    await waitFor(() => expect(success).toHaveBeenCalledWith('Send Mail Successfully.'));
    expect(server.sends).toEqual([
      { data: Array.from({ length: 9 }, (_, index) => `record-${index + 1}`), type: 'notice' },
    ]);
    expect(
      server.requests.find(({ method }) => method === 'POST')?.request.headers.get('authorization'),
    ).toBe('Bearer token-1');
    expect(bar()).toBeNull();
    await waitFor(() => expect(server.campaignLoads()).toBe(2));
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('sends 25 records in chunks of 10, one after another, moving the bar from 10 to 100 with a caption in records, and hides it 5 s later', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldAdvanceTime: true });
    const answers = [deferred<void>(), deferred<void>(), deferred<void>()];
    const server = campaignServer(25, async (body, call) => {
      await answers[call - 1]!.promise;
      return jsonResponse(200, allSent(body));
    });
    const success = vi.spyOn(toast, 'success');
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    renderDetail();
    await screen.findByRole('cell', { name: 'Customer 25' });

    await user.click(selectAll());
    await user.click(sendButton());

    await waitFor(() => expect(bar()?.getAttribute('aria-valuenow')).toBe('10'));
    expect(barCaption()).toBe('Sending notices: 0 of 25 records');
    expect(sendButton().disabled).toBe(true);
    await waitFor(() => expect(server.sends).toHaveLength(1));
    expect(server.sends[0]?.data).toHaveLength(10);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(server.sends).toHaveLength(1);

    // The next chunk goes only once the last one was answered.
    answers[0]!.resolve();
    await waitFor(() => expect(bar()?.getAttribute('aria-valuenow')).toBe('40'));
    await waitFor(() => expect(server.sends).toHaveLength(2));
    expect(server.sends[1]?.data).toEqual(Array.from({ length: 10 }, (_, index) => `record-${index + 11}`));

    answers[1]!.resolve();
    await waitFor(() => expect(bar()?.getAttribute('aria-valuenow')).toBe('70'));
    expect(barCaption()).toBe('Sending notices: 20 of 25 records');
    await waitFor(() => expect(server.sends).toHaveLength(3));
    expect(server.sends[2]?.data).toEqual(Array.from({ length: 5 }, (_, index) => `record-${index + 21}`));
    expect(success).not.toHaveBeenCalled();

    answers[2]!.resolve();
    await waitFor(() => expect(success).toHaveBeenCalledWith('Send Mail Successfully.'));
    expect(bar()?.getAttribute('aria-valuenow')).toBe('100');
    expect(barCaption()).toBe('Sending notices: 25 of 25 records');
    expect(sendButton().disabled).toBe(false);
    await waitFor(() => expect(server.campaignLoads()).toBe(2));

    await act(() => vi.advanceTimersByTimeAsync(4_900));
    expect(bar()).not.toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(bar()).toBeNull();
  });

  it('goes on past a failed chunk (only logged), then says what failed until dismissed', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const success = vi.spyOn(toast, 'success');
    const error = vi.spyOn(toast, 'error');
    const server = campaignServer(25, (body, call) => {
      if (call === 2)
        return jsonResponse(503, { statusCode: 503, code: 'DOWN', message: 'Down.', error: 'Down.' });
      if (call === 3) return jsonResponse(200, { ...allSent(body), sent: 8, failed: 2 });
      return jsonResponse(200, allSent(body));
    });
    const user = userEvent.setup();
    renderDetail();
    await screen.findByRole('cell', { name: 'Customer 25' });

    await user.click(selectAll());
    await user.click(sendButton());

    const said = 'Sent 28; 2 failed (see the reasons); 10 records not sent (the request failed)';
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain(said));
    // Not everything went out, so the toast says what happened instead of 'Send Mail Successfully.'.
    expect(success).not.toHaveBeenCalled();
    expect(server.sends).toHaveLength(3);
    expect(log).toHaveBeenCalledWith('Sending chunk 2 of 3 failed.', expect.anything());
    expect(error).not.toHaveBeenCalled();
    const summary = screen.getByRole('status');

    await user.click(within(summary).getByRole('button', { name: 'Dismiss' }));
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('asks before sending to addresses that bounced before, then sends with confirmBounced, or not at all', async () => {
    const server = campaignServer(3, (body) =>
      body.confirmBounced
        ? jsonResponse(200, allSent(body))
        : jsonResponse(409, {
            statusCode: 409,
            code: 'BOUNCED_BEFORE',
            message: '1 address bounced or failed before. Send to it anyway?',
            error: { bouncedBefore: '1' },
          }),
    );
    const success = vi.spyOn(toast, 'success');
    const user = userEvent.setup();
    renderDetail();
    await screen.findByRole('cell', { name: 'Customer 3' });
    await user.click(selectAll());

    await user.click(sendButton());
    const dialog = await screen.findByRole('dialog', {
      name: '1 address bounced or failed before. Send to it anyway?',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Send anyway' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Send Mail Successfully.'));
    expect(server.sends.map((s) => s.confirmBounced)).toEqual([undefined, true]);

    await user.click(sendButton());
    const again = await screen.findByRole('dialog');
    await user.click(within(again).getByRole('button', { name: "Don't send" }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toContain(
        '3 records not sent: an address bounced or failed before',
      ),
    );
    expect(server.sends).toHaveLength(3);
  });

  it("counts each channel's statuses above the table, and resends the failed and bounced records after confirming", async () => {
    const rows = [
      {
        ...row(1),
        emailResponse: 'bounced',
        emailError: 'The mail server returned it (5.1.1): user unknown',
      },
      { ...row(2), emailResponse: 'sent', whatsappResponse: 'failed', whatsappError: 'Not a WhatsApp user' },
      { ...row(3), emailResponse: 'sent', whatsappResponse: 'read' },
    ];
    const sends: SendMailBody[] = [];
    const server = stubFetch(async ({ method, path, request, search }) => {
      if (path.endsWith('/funnel')) return jsonResponse(200, funnelOf());
      if (method === 'POST' && path === '/api/campaigns/send-mail') {
        const body = (await request.json()) as SendMailBody;
        sends.push(body);
        return jsonResponse(200, allSent(body));
      }
      // The whole campaign's failed and bounced records: one of them is on another page.
      if (path === '/api/campaigns/single-campaign/campaign-1/record-ids')
        return jsonResponse(200, { ids: ['record-1', 'record-2', 'record-70'], total: 3 });
      // The server filters: asked for failed, it answers the one failed record of the campaign.
      const status = search.get('status');
      const kept = status ? rows.filter((r) => r.whatsappResponse === status) : rows;
      const campaign: SingleCampaign = {
        _id: 'campaign-1',
        name: 'March notices',
        type: 'notice',
        date: '2025-03-01T12:00:00.000Z',
        imported: 3,
        skipped: 0,
        completedCounts: 3,
        statusCounts: [
          { channel: 'email', status: 'bounced', count: 1 },
          { channel: 'email', status: 'sent', count: 2 },
          { channel: 'whatsapp', status: 'failed', count: 1 },
          { channel: 'whatsapp', status: 'read', count: 1 },
        ],
        total: kept.length,
        notices: kept,
      };
      return jsonResponse(200, campaign);
    });
    const user = userEvent.setup();
    renderDetail();
    await screen.findByRole('cell', { name: 'Customer 3' });
    const counts = screen.getByLabelText('Statuses per channel');
    const outbox = 'Outbox (not sent: no provider set up)';
    expect(counts.textContent).toContain(`EmailQueued 0Sent 2Delivered 0Read 0Failed 0Bounced 1${outbox} 0`);
    expect(counts.textContent).toContain(
      `WhatsAppQueued 0Sent 0Delivered 0Read 1Failed 1Bounced 0${outbox} 0`,
    );

    // The status filter asks the server, which filters the whole campaign (the pager counts what it keeps).
    await user.selectOptions(screen.getByLabelText('Show'), 'failed');
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'Customer 1' })).toBeNull());
    expect(screen.getByRole('cell', { name: 'Customer 2' })).toBeTruthy();
    expect(server.requests.at(-1)!.search.get('status')).toBe('failed');
    expect(server.requests.at(-1)!.search.get('page')).toBe('1');
    await user.selectOptions(screen.getByLabelText('Show'), '');
    expect(await screen.findByRole('cell', { name: 'Customer 1' })).toBeTruthy();

    // 'Resend failed' confirms with the whole campaign's count, from the server, and sends them all.
    await user.click(screen.getByRole('button', { name: 'Resend failed' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Resend the 3 records that failed or bounced?',
    });
    expect(server.requests.at(-1)!.search.get('status')).toBe('failed,bounced');
    await user.click(within(dialog).getByRole('button', { name: 'Resend' }));
    await waitFor(() => expect(sends).toHaveLength(1));
    expect(sends[0]).toEqual({ data: ['record-1', 'record-2', 'record-70'], type: 'notice', resend: true });
  });

  it('shows beside the bar the messages a second achieved, and the provider limit that holds the send back', async () => {
    campaignServer(20, (body) =>
      jsonResponse(200, { ...allSent(body), rates: [{ channel: 'whatsapp', limit: 20, perSecond: 19.6 }] }),
    );
    const user = userEvent.setup();
    renderDetail();
    await screen.findByRole('cell', { name: 'Customer 20' });
    await user.click(selectAll());
    await user.click(sendButton());
    expect(await screen.findByText(/^[\d.]+ messages a second; WhatsApp limited to 20\/s$/)).toBeTruthy();
  });

  it('does not claim success when no request got through', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const success = vi.spyOn(toast, 'success');
    const error = vi.spyOn(toast, 'error');
    campaignServer(3, () =>
      jsonResponse(500, {
        statusCode: 500,
        code: 'INTERNAL',
        message: 'Database down.',
        error: 'Database down.',
      }),
    );
    const user = userEvent.setup();
    renderDetail();
    await screen.findByRole('cell', { name: 'Customer 3' });

    await user.click(selectAll());
    await user.click(sendButton());

    await waitFor(() => expect(error).toHaveBeenCalledWith('Database down.'));
    expect(success).not.toHaveBeenCalled();
  });
});
