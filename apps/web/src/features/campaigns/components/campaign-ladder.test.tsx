import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CampaignLadder as Answer } from '@notice-desk/contract/fallback';
import { jsonResponse, plainUser, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { CampaignLadder } from './campaign-ladder.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const kindLadder: Answer = {
  campaignId: 'campaign-1',
  source: 'kind',
  updatedAt: '2026-11-29T00:00:00.000Z',
  ladder: {
    channels: ['whatsapp', 'sms', 'post'],
    steps: [
      { channel: 'whatsapp', after: 0, unless: null },
      { channel: 'sms', after: 24, unless: 'delivered' },
      { channel: 'post', after: 168, unless: 'opened' },
    ],
  },
};

function fakeApi() {
  const puts: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      if (request.method !== 'PUT') return jsonResponse(200, kindLadder);
      const body = (await request.json()) as Answer['ladder'];
      puts.push(body);
      return jsonResponse(200, {
        ...kindLadder,
        source: 'campaign',
        ladder: body,
        updatedAt: '2026-11-30T00:00:00.000Z',
      });
    }),
  );
  return puts;
}

describe('CampaignLadder', () => {
  it('shows the ladder the records follow, and is changed with the keyboard alone, checked before it is sent', async () => {
    const puts = fakeApi();
    renderWithApp(<CampaignLadder campaignId="campaign-1" />, {
      path: '/campaign/notice/campaign-1',
      session: sessionOf(plainUser),
    });
    expect(
      await screen.findByText(
        'The record kind’s default ladder: WhatsApp at once; SMS after 24 hours unless delivered; Speed Post after 7 days unless opened.',
      ),
    ).toBeTruthy();
    const user = userEvent.setup();
    // The panel opens from the keyboard.
    await user.tab();
    expect(document.activeElement?.textContent).toBe('Change the channels and fallback');
    await user.keyboard('{Enter}');
    const form = screen.getByRole('form', { name: 'Channels and fallback' });
    const add = within(form).getByRole('button', { name: 'Add a step' });
    while (document.activeElement !== add) await user.tab();
    await user.keyboard('{Enter}');
    // The new step: SMS has a step already, and its hours are no number.
    const after = within(form).getAllByLabelText('After (hours)')[3]!;
    await user.clear(after);
    await user.type(after, 'two days');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toContain(
      'steps.3.after: after must be a whole number of hours after the first send.',
    );
    expect(after.getAttribute('aria-invalid')).toBe('true');
    expect(puts).toEqual([]);
    // E-mail after 9 days, once e-mail is one of the channels.
    await user.clear(after);
    await user.type(after, '216');
    await user.selectOptions(within(form).getAllByLabelText('Channel')[3]!, 'email');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() =>
      expect(within(form).getByRole('alert').textContent).toContain(
        "steps.3.channel: email is not one of the campaign's channels",
      ),
    );
    await user.click(within(form).getByLabelText('e-mail'));
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() =>
      expect(puts).toEqual([
        {
          channels: ['email', 'whatsapp', 'sms', 'post'],
          steps: [
            { channel: 'whatsapp', after: 0 },
            { channel: 'sms', after: 24, unless: 'delivered' },
            { channel: 'post', after: 168, unless: 'opened' },
            { channel: 'email', after: 216, unless: 'delivered' },
          ],
        },
      ]),
    );
    expect(
      await screen.findByText(/^This campaign’s own ladder: .*e-mail after 9 days unless delivered\.$/),
    ).toBeTruthy();
  });

  it("takes focus to the field to fix, whether the form or the server found it, and shows the server's message on its field", async () => {
    const serverMessage = "after must not be less than the step before's (48 hours): steps go in time order.";
    const puts: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (request: Request) => {
        if (request.method !== 'PUT') return jsonResponse(200, kindLadder);
        puts.push(await request.json());
        return jsonResponse(400, {
          statusCode: 400,
          code: 'VALIDATION',
          message: `steps.1.after: ${serverMessage}`,
          error: { 'steps.1.after': serverMessage },
        });
      }),
    );
    renderWithApp(<CampaignLadder campaignId="campaign-1" />, {
      path: '/campaign/notice/campaign-1',
      session: sessionOf(plainUser),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByText('Change the channels and fallback'));
    const form = screen.getByRole('form', { name: 'Channels and fallback' });
    const smsAfter = within(form).getAllByLabelText('After (hours)')[1]!;
    await user.clear(smsAfter);
    await user.type(smsAfter, 'a day');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(document.activeElement).toBe(smsAfter));
    expect(smsAfter.getAttribute('aria-invalid')).toBe('true');
    expect(puts).toEqual([]);

    await user.clear(smsAfter);
    await user.type(smsAfter, '36');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(document.activeElement).toBe(smsAfter));
    expect(puts).toHaveLength(1);
    expect(smsAfter.getAttribute('aria-invalid')).toBe('true');
    const described = document.getElementById(smsAfter.getAttribute('aria-describedby')!);
    expect(described?.textContent).toBe(serverMessage);
    expect(within(form).getByRole('alert').textContent).toContain(`steps.1.after: ${serverMessage}`);
  });
});
