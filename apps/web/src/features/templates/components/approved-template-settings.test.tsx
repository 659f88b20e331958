import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApprovedTemplates } from '@notice-desk/contract/whatsapp-approved';
import { adminUser, jsonResponse, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { ApprovedTemplateSettings } from './approved-template-settings.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const listed: ApprovedTemplates = {
  mode: 'template',
  items: [
    {
      kind: 'credit-card',
      name: 'card_notice',
      language: 'en',
      bodyFields: ['custName'],
      status: { state: 'REJECTED', reason: 'Meta rejected it: INVALID_FORMAT.', bodyParameters: 1 },
      usable: false,
    },
    {
      kind: 'notice',
      name: 'legal_notice',
      language: 'en',
      bodyFields: ['custName', 'loanNo'],
      status: { state: 'APPROVED', reason: null, bodyParameters: 2 },
      usable: true,
    },
  ],
};

function fakeApi(answer: ApprovedTemplates = listed) {
  const puts: { path: string; body: unknown }[] = [];
  const fetch = vi.fn(async (request: Request) => {
    const url = new URL(request.url);
    if (request.method === 'PUT') {
      puts.push({ path: url.pathname, body: await request.json() });
      return jsonResponse(422, {
        statusCode: 422,
        code: 'WHATSAPP_TEMPLATE_PARAMETERS',
        message: 'Its body has 2 parameter(s) but 3 field(s) are mapped to it: map one field to each.',
        error: 'Its body has 2 parameter(s) but 3 field(s) are mapped to it: map one field to each.',
      });
    }
    return jsonResponse(200, answer);
  });
  vi.stubGlobal('fetch', fetch);
  return puts;
}

describe('ApprovedTemplateSettings', () => {
  it('shows each kind’s template with its status at Meta, and the reason when it cannot be used', async () => {
    fakeApi();
    renderWithApp(<ApprovedTemplateSettings />, {
      path: '/templates/whatsapp-templates',
      session: sessionOf(adminUser),
    });
    const notices = await screen.findByRole('form', { name: 'Notices' });
    expect(within(notices).getByRole('status').textContent).toBe('Status at Meta: APPROVED');
    expect((within(notices).getByLabelText(/Body fields/) as HTMLInputElement).value).toBe(
      'custName, loanNo',
    );
    const cards = screen.getByRole('form', { name: 'Credit cards' });
    expect(within(cards).getByRole('status').textContent).toBe(
      'Status at Meta: REJECTED: Meta rejected it: INVALID_FORMAT.',
    );
  });

  it.each([
    ['button', "The notice page's link goes in the template's URL button, as its dynamic suffix."],
    [
      'body',
      "The notice page's link goes in the last body parameter, {{3}}: the template has no URL button.",
    ],
    [
      'button and body',
      "The notice page's link goes in the template's URL button, as its dynamic suffix, and its whole address in the last body parameter, {{3}}.",
    ],
    [
      'none',
      "This template has no place for the notice page's link: add a URL button with a dynamic suffix, or one more body parameter, and have Meta approve it again.",
    ],
  ] as const)('says where the notice page’s link goes when it goes by %s', async (linkBy, text) => {
    fakeApi({ ...listed, items: listed.items.map((item) => ({ ...item, linkBy })) });
    renderWithApp(<ApprovedTemplateSettings />, {
      path: '/templates/whatsapp-templates',
      session: sessionOf(adminUser),
    });
    const notices = await screen.findByRole('form', { name: 'Notices' });
    expect(within(notices).getByText(text)).toBeTruthy();
  });

  it('says nothing of the link where Meta could not be asked', async () => {
    fakeApi();
    renderWithApp(<ApprovedTemplateSettings />, {
      path: '/templates/whatsapp-templates',
      session: sessionOf(adminUser),
    });
    const notices = await screen.findByRole('form', { name: 'Notices' });
    expect(within(notices).queryByText(/notice page's link/)).toBeNull();
  });

  it('saves the field list in order and shows the server’s refusal', async () => {
    const puts = fakeApi();
    const error = vi.spyOn(toast, 'error');
    renderWithApp(<ApprovedTemplateSettings />, {
      path: '/templates/whatsapp-templates',
      session: sessionOf(adminUser),
    });
    const notices = await screen.findByRole('form', { name: 'Notices' });
    const fields = within(notices).getByLabelText(/Body fields/);
    await userEvent.clear(fields);
    await userEvent.type(fields, 'custName, loanNo , hub');
    await userEvent.click(within(notices).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      path: '/api/whatsapptemplates/approved/notice',
      body: { name: 'legal_notice', language: 'en', bodyFields: ['custName', 'loanNo', 'hub'] },
    });
    await vi.waitFor(() =>
      expect(error).toHaveBeenCalledWith(
        expect.stringMatching(/Its body has 2 parameter\(s\) but 3 field\(s\)/),
      ),
    );
  });
});
