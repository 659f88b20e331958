import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SmsTemplates } from '@notice-desk/contract/sms-templates';
import { adminUser, jsonResponse, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { SmsTemplateSettings } from './sms-template-settings.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const REGISTERED = 'Dear {#var#}, a legal notice on loan {#var#} is at {#var#} - Firm';
const TEXT = 'Dear {{custName}}, a legal notice on loan {{loanNo}} is at {{noticeLink}} - Firm';

const listed: SmsTemplates = {
  via: 'msg91',
  entityId: '1101234567890123456',
  sender: 'NDESK',
  items: [
    {
      kind: 'notice',
      dltTemplateId: '1107160000000012345',
      registeredText: REGISTERED,
      text: TEXT,
      slotFields: ['custName', 'loanNo', 'noticeLink'],
      length: { characters: 162, segments: 2, unicode: false },
      updatedAt: '2026-11-29T10:00:00.000Z',
    },
    {
      kind: 'credit-card',
      dltTemplateId: '1107160000000054321',
      registeredText: 'प्रिय {#var#}, नोटिस {#var#}',
      text: 'प्रिय {{custName}}, नोटिस {{noticeLink}}',
      slotFields: ['custName', 'noticeLink'],
      length: { characters: 75, segments: 2, unicode: true },
      updatedAt: '2026-11-29T10:00:00.000Z',
    },
  ],
};

/** The server's refusal of a text that differs from its registered one (sms-templates.service.ts check). */
const MISMATCH =
  "The SMS text differs from the registered DLT text at character 10: the registered text has ',' (U+002C), the SMS text has ';' (U+003B).";

function fakeApi(put: (body: unknown) => Response) {
  const puts: { path: string; body: unknown }[] = [];
  const fetch = vi.fn(async (request: Request) => {
    const url = new URL(request.url);
    if (request.method === 'PUT') {
      const body = await request.json();
      puts.push({ path: url.pathname, body });
      return put(body);
    }
    return jsonResponse(200, listed);
  });
  vi.stubGlobal('fetch', fetch);
  return { puts, fetch };
}

const renderSettings = () =>
  renderWithApp(<SmsTemplateSettings />, {
    path: '/templates/whatsapp-templates',
    session: sessionOf(adminUser),
  });

const textField = (form: HTMLElement) => within(form).getByLabelText(/^SMS text/) as HTMLTextAreaElement;

describe('SmsTemplateSettings', () => {
  it('shows the segment count with every slot full, and whether the text needs Unicode', async () => {
    fakeApi(() => jsonResponse(500, {}));
    renderSettings();
    const notices = await screen.findByRole('form', { name: 'Notices SMS' });
    expect(within(notices).getByRole('status').textContent).toBe(
      'At most 162 characters with every slot full (30 each): 2 segments, GSM-7 (160 characters a segment).',
    );
    expect(
      within(notices).getByText('Slots: 1: {{custName}}, 2: {{loanNo}}, 3: {{noticeLink}}'),
    ).toBeTruthy();
    const cards = screen.getByRole('form', { name: 'Credit cards SMS' });
    expect(within(cards).getByRole('status').textContent).toBe(
      'At most 75 characters with every slot full (30 each): 2 segments, Unicode (UCS-2, 70 characters a segment).',
    );
    expect(
      screen.getByText(
        /SMS go by MSG91 on these DLT templates\. Sender header: NDESK; DLT entity id: 1101234567890123456\./,
      ),
    ).toBeTruthy();
  });

  it('saves the DLT template id, the registered text and the SMS text', async () => {
    const { puts, fetch } = fakeApi((body) =>
      jsonResponse(200, { ...listed.items[0], ...(body as object), updatedAt: '2026-11-29T11:00:00.000Z' }),
    );
    const success = vi.spyOn(toast, 'success');
    const user = userEvent.setup();
    renderSettings();
    const notices = await screen.findByRole('form', { name: 'Notices SMS' });
    const id = within(notices).getByLabelText('DLT template id');
    await user.clear(id);
    await user.type(id, '1107160000000099999');
    await user.click(within(notices).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      path: '/api/smstemplates/dlt/notice',
      body: { dltTemplateId: '1107160000000099999', registeredText: REGISTERED, text: TEXT },
    });
    await vi.waitFor(() => expect(success).toHaveBeenCalledWith('Updated Successfully.'));
    // The list is read again after a save.
    await vi.waitFor(() => expect(fetch.mock.calls.filter(([r]) => r.method === 'GET')).toHaveLength(2));
  });

  it('shows the DLT mismatch under the SMS text, with the first differing character', async () => {
    fakeApi(() =>
      jsonResponse(422, {
        statusCode: 422,
        code: 'DLT_TEXT_MISMATCH',
        message: MISMATCH,
        error: { text: MISMATCH },
      }),
    );
    const error = vi.spyOn(toast, 'error');
    const user = userEvent.setup();
    renderSettings();
    const notices = await screen.findByRole('form', { name: 'Notices SMS' });
    const text = textField(notices);
    await user.clear(text);
    await user.click(text);
    await user.paste('Dear {{custName}}; a legal notice on loan {{loanNo}} is at {{noticeLink}} - Firm');
    await user.click(within(notices).getByRole('button', { name: 'Save' }));

    const message = await within(notices).findByText(MISMATCH);
    expect(text.getAttribute('aria-invalid')).toBe('true');
    expect(text.getAttribute('aria-describedby')).toBe(message.id);
    expect(message.textContent).toContain("at character 10: the registered text has ',' (U+002C)");
    // Shown under its field, not as a toast as well.
    expect(error).not.toHaveBeenCalled();
  });
});
