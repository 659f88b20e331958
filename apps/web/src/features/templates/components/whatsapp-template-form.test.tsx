import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeTemplatesApi, whatsappTemplate } from '../../../testing/fake-templates-api.ts';
import { adminUser, jsonResponse, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { EditWhatsappTemplate } from './edit-whatsapp-template.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const template = whatsappTemplate(1, {
  key: 'notice-whatsapp',
  name: 'Notice WhatsApp',
  value: 'Dear {{custName}}',
});

function renderEdit(onSaved = vi.fn()) {
  renderWithApp(<EditWhatsappTemplate id={template._id} onSaved={onSaved} />, {
    path: `/templates/whatsapp-templates/edit/${template._id}`,
    session: sessionOf(adminUser),
  });
  return onSaved;
}

const valueField = () => screen.findByLabelText<HTMLTextAreaElement>('Value');
const updates = (api: ReturnType<typeof fakeTemplatesApi>) => api.requests.filter((r) => r.method === 'PUT');

describe('EditWhatsappTemplate', () => {
  it('shows the name read-only and the value to edit', async () => {
    fakeTemplatesApi({ whatsapp: [template] });
    renderEdit();

    expect((await valueField()).value).toBe('Dear {{custName}}');
    const name = screen.getByLabelText<HTMLInputElement>('Name');
    expect(name.value).toBe('Notice WhatsApp');
    expect(name.readOnly).toBe(true);
  });

  it("says 'value is required!!' under an empty value and sends nothing", async () => {
    const api = fakeTemplatesApi({ whatsapp: [template] });
    const user = userEvent.setup();
    const onSaved = renderEdit();

    await user.clear(await valueField());
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(screen.getByText('value is required!!')).toBeTruthy();
    expect((await valueField()).getAttribute('aria-invalid')).toBe('true');
    expect(updates(api)).toEqual([]);
    expect(onSaved).not.toHaveBeenCalled();

    await user.type(await valueField(), 'Hello');
    expect(screen.queryByText('value is required!!')).toBeNull();
  });

  it("saves key, name and the new value, shows 'Updated Successfully.' and goes back", async () => {
    const api = fakeTemplatesApi({ whatsapp: [template] });
    const success = vi.spyOn(toast, 'success');
    const user = userEvent.setup();
    const onSaved = renderEdit();

    await user.clear(await valueField());
    await user.type(await valueField(), 'Pay Rs. {{{{totalOverdueAmt}}');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(success).toHaveBeenCalledWith('Updated Successfully.');
    expect(updates(api)).toEqual([
      expect.objectContaining({
        path: `/api/whatsapptemplates/update/${template._id}`,
        body: { key: 'notice-whatsapp', name: 'Notice WhatsApp', value: 'Pay Rs. {{totalOverdueAmt}}' },
      }),
    ]);
  });

  it("shows the server's message for the value under the field", async () => {
    const message = '{{balance}} names no field of a notice record. Use one of the listed placeholders.';
    fakeTemplatesApi({
      whatsapp: [template],
      answer: ({ method }) =>
        method === 'PUT'
          ? jsonResponse(400, { statusCode: 400, code: 'VALIDATION', message, error: { value: message } })
          : undefined,
    });
    const error = vi.spyOn(toast, 'error');
    const user = userEvent.setup();
    const onSaved = renderEdit();

    await user.type(await valueField(), ' {{{{balance}}');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(message)).toBeTruthy();
    expect(error).not.toHaveBeenCalled();
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('inserts a clicked placeholder where the cursor was', async () => {
    fakeTemplatesApi({ whatsapp: [template] });
    const user = userEvent.setup();
    renderEdit();
    const value = await valueField();

    // The cursor sits after 'Dear '.
    value.setSelectionRange(5, 5);
    await user.click(screen.getByRole('button', { name: 'Insert {{loanNo}}' }));

    expect(value.value).toBe('Dear {{loanNo}}{{custName}}');
    expect(document.activeElement).toBe(value);
    expect(value.selectionStart).toBe(15);
  });
});
