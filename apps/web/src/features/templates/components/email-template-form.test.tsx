import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useImperativeHandle, useState } from 'react';
import toast from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emailTemplate, fakeTemplatesApi } from '../../../testing/fake-templates-api.ts';
import { adminUser, jsonResponse, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { EditEmailTemplate } from './edit-email-template.tsx';
import type { RichTextEditorProps } from './rich-text-editor.tsx';

// TinyMCE cannot run in jsdom: a text area stands in for it behind the same props and handle.
vi.mock('./rich-text-editor.tsx', () => ({
  RichTextEditor: function FakeRichTextEditor({ label, initialValue, onChange, ref }: RichTextEditorProps) {
    const [html, setHtml] = useState(initialValue);
    const change = (next: string) => {
      setHtml(next);
      onChange(next);
    };
    useImperativeHandle(ref, () => ({ insertText: (text: string) => change(`${html}${text}`) }));
    return <textarea aria-label={label} value={html} onChange={(event) => change(event.target.value)} />;
  },
}));

const template = emailTemplate(1, {
  key: 'notice-default',
  name: 'Notice Conciliation',
  html: '<p>Dear</p>',
});
const realCreateObjectUrl = URL.createObjectURL;
const realRevokeObjectUrl = URL.revokeObjectURL;

beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:http://localhost/preview-1');
  URL.revokeObjectURL = vi.fn();
});

afterEach(() => {
  URL.createObjectURL = realCreateObjectUrl;
  URL.revokeObjectURL = realRevokeObjectUrl;
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderEdit(onSaved = vi.fn()) {
  renderWithApp(<EditEmailTemplate id={template._id} onSaved={onSaved} />, {
    path: `/templates/email-templates/edit/${template._id}`,
    session: sessionOf(adminUser),
  });
  return onSaved;
}

const body = () => screen.findByRole<HTMLTextAreaElement>('textbox', { name: 'Body' });

describe('EditEmailTemplate', () => {
  it("says 'Body is required!!' when the body is emptied and sends nothing", async () => {
    const api = fakeTemplatesApi({ email: [template] });
    const user = userEvent.setup();
    const onSaved = renderEdit();

    await user.clear(await body());
    expect((screen.getByLabelText('Name') as HTMLInputElement).readOnly).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(screen.getByText('Body is required!!')).toBeTruthy();
    expect(api.requests.filter((request) => request.method === 'PUT')).toEqual([]);
    expect(onSaved).not.toHaveBeenCalled();
  });

  it("saves key, name and the editor's HTML with a placeholder inserted, then 'Updated Successfully.'", async () => {
    const api = fakeTemplatesApi({ email: [template] });
    const success = vi.spyOn(toast, 'success');
    const user = userEvent.setup();
    const onSaved = renderEdit();
    await body();

    await user.click(screen.getByRole('button', { name: 'Insert {{loanNo}}' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(success).toHaveBeenCalledWith('Updated Successfully.');
    expect(api.requests.find((request) => request.method === 'PUT')).toMatchObject({
      path: `/api/emailTemplates/update/${template._id}`,
      body: { key: 'notice-default', name: 'Notice Conciliation', html: '<p>Dear</p>{{loanNo}}' },
    });
  });

  it("shows the server's placeholder message under the body", async () => {
    const message = '{{balance}} names no field of a notice record. Use one of the listed placeholders.';
    fakeTemplatesApi({
      email: [template],
      answer: ({ method }) =>
        method === 'PUT'
          ? jsonResponse(400, { statusCode: 400, code: 'VALIDATION', message, error: { html: message } })
          : undefined,
    });
    const user = userEvent.setup();
    const onSaved = renderEdit();
    await body();

    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(message)).toBeTruthy();
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('previews the unsaved body: opens a tab at once, then shows the PDF in it', async () => {
    const api = fakeTemplatesApi({
      email: [template],
      answer: ({ path }) =>
        path === '/api/emailTemplates/preview'
          ? new Response(new Blob(['%PDF-1.7'], { type: 'application/pdf' }), {
              status: 200,
              headers: { 'Content-Type': 'application/pdf' },
            })
          : undefined,
    });
    const tab = { opener: {}, closed: false, close: vi.fn(), location: { href: '' }, document };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const user = userEvent.setup();
    renderEdit();
    await user.type(await body(), 'unsaved');

    await user.click(screen.getByRole('button', { name: 'Preview' }));

    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(tab.opener).toBeNull();
    await waitFor(() => expect(tab.location.href).toBe('blob:http://localhost/preview-1'));
    expect(api.requests.find((request) => request.path === '/api/emailTemplates/preview')?.body).toEqual({
      kind: 'notice',
      html: '<p>Dear</p>unsaved',
      language: null,
    });
  });

  it('previews with the record picked from the combobox, by keyboard, in the template’s language', async () => {
    const hindi = emailTemplate(2, { key: 'notice-default.hi', name: 'Notice (Hindi)', language: 'hi' });
    const records = [
      { _id: 'r-hi', reference: 'LN-7', custName: 'Asha Verma', language: 'Hindi', inLanguage: true },
      { _id: 'r-ta', reference: 'LN-9', custName: 'Chitra Iyer', language: 'ta', inLanguage: false },
    ];
    const api = fakeTemplatesApi({
      email: [hindi],
      answer: ({ path, search }) => {
        if (path === '/api/emailTemplates/preview-records') {
          const q = search.get('q');
          const found = q ? records.filter((record) => record.custName.includes(q)) : records;
          return jsonResponse(200, { records: found, defaultId: 'r-hi' });
        }
        if (path === '/api/emailTemplates/preview')
          return new Response(new Blob(['%PDF-1.7'], { type: 'application/pdf' }), { status: 200 });
        return undefined;
      },
    });
    // A tab with a document of its own: the preview writes into it while the PDF renders.
    const tabDocument = document.implementation.createHTMLDocument('tab');
    const tab = { opener: {}, closed: false, close: vi.fn(), location: { href: '' }, document: tabDocument };
    vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const user = userEvent.setup();
    renderWithApp(<EditEmailTemplate id={hindi._id} onSaved={vi.fn()} />, {
      path: `/templates/email-templates/edit/${hindi._id}`,
      session: sessionOf(adminUser),
    });
    expect(await screen.findByText('Default: your newest Hindi record, LN-7 · Asha Verma.')).toBeTruthy();
    expect(
      api.requests.some(
        (request) => request.search.get('language') === 'hi' && request.search.get('kind') === 'notice',
      ),
    ).toBe(true);

    const picker = screen.getByRole('combobox', { name: 'Record to preview' });
    await user.click(picker);
    await user.type(picker, 'Chitra');
    expect(await screen.findByRole('option', { name: /LN-9 · Chitra Iyer/ })).toBeTruthy();
    await waitFor(() => expect(picker.getAttribute('aria-expanded')).toBe('true'));
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Prints with LN-9 · Chitra Iyer.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Preview' }));
    await waitFor(() => expect(tab.location.href).toBe('blob:http://localhost/preview-1'));
    expect(
      api.requests.find((request) => request.path === '/api/emailTemplates/preview')?.body,
    ).toMatchObject({
      kind: 'notice',
      language: 'hi',
      recordId: 'r-ta',
    });

    // Back to the default: the preview no longer names a record.
    await user.click(screen.getByRole('button', { name: 'Use the default' }));
    expect(await screen.findByText('Default: your newest Hindi record, LN-7 · Asha Verma.')).toBeTruthy();
  });

  it('offers the preview as a link when the browser blocks the new tab', async () => {
    fakeTemplatesApi({
      email: [template],
      answer: ({ path }) =>
        path === '/api/emailTemplates/preview'
          ? new Response(new Blob(['%PDF-1.7'], { type: 'application/pdf' }), { status: 200 })
          : undefined,
    });
    vi.spyOn(window, 'open').mockReturnValue(null);
    const user = userEvent.setup();
    renderEdit();
    await body();

    await user.click(screen.getByRole('button', { name: 'Preview' }));

    const link = await screen.findByRole('link', { name: 'Open the preview' });
    expect(link.getAttribute('href')).toBe('blob:http://localhost/preview-1');
    expect(link.getAttribute('target')).toBe('_blank');
  });

  it('edits an e-mail subject as one plain line, not rich text, and offers no PDF preview', async () => {
    const subject = emailTemplate(2, {
      key: 'email-subject-notice',
      name: 'Notice e-mail subject',
      html: 'Notice: loan ',
    });
    const api = fakeTemplatesApi({ email: [subject] });
    const user = userEvent.setup();
    const onSaved = vi.fn();
    renderWithApp(<EditEmailTemplate id={subject._id} onSaved={onSaved} />, {
      path: `/templates/email-templates/edit/${subject._id}`,
      session: sessionOf(adminUser),
    });

    const line = await screen.findByRole<HTMLInputElement>('textbox', { name: 'Body' });
    expect(line.tagName).toBe('INPUT');
    expect(screen.queryByRole('button', { name: 'Preview' })).toBeNull();
    line.setSelectionRange(13, 13);
    await user.click(screen.getByRole('button', { name: 'Insert {{loanNo}}' }));
    expect(line.value).toBe('Notice: loan {{loanNo}}');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(api.requests.find((request) => request.method === 'PUT')?.body).toMatchObject({
      html: 'Notice: loan {{loanNo}}',
    });
  });
});
