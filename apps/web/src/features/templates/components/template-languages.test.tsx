import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emailTemplate, fakeTemplatesApi, whatsappTemplate } from '../../../testing/fake-templates-api.ts';
import { adminUser, jsonResponse, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { EditEmailTemplate } from './edit-email-template.tsx';
import { EditWhatsappTemplate } from './edit-whatsapp-template.tsx';
import type { RichTextEditorProps } from './rich-text-editor.tsx';

// TinyMCE cannot run in jsdom: a text area stands in for it behind the same props.
vi.mock('./rich-text-editor.tsx', () => ({
  RichTextEditor: function FakeRichTextEditor({ label, initialValue, onChange }: RichTextEditorProps) {
    const [html, setHtml] = useState(initialValue);
    return (
      <textarea
        aria-label={label}
        value={html}
        onChange={(event) => {
          setHtml(event.target.value);
          onChange(event.target.value);
        }}
      />
    );
  },
}));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const notice = emailTemplate(1, {
  key: 'notice-default',
  name: 'Notice Conciliation',
  html: '<p>Dear {{custName}}</p>',
  variants: [{ _id: emailTemplate(2)._id, language: 'hi', name: 'Notice Conciliation (Hindi)' }],
});
const hindi = emailTemplate(2, {
  key: 'notice-default.hi',
  name: 'Notice Conciliation (Hindi)',
  html: '<p>सेवा में {{custName}}</p>',
  language: 'hi',
  variantOf: notice._id,
});

/** The edit page of `id`, with a route for the other templates' edit pages so a move to one lands. */
function renderEmailEdit(id: string) {
  return renderWithApp(<EditEmailTemplate id={id} onSaved={() => {}} />, {
    path: `/templates/email-templates/edit/${id}`,
    session: sessionOf(adminUser),
    routes: [{ path: '/templates/email-templates/edit/:id', element: <p>another template</p> }],
  });
}

describe('the PDF Editor’s languages', () => {
  it('lists a default’s variants as links and adds a language, opening the new variant in the editor', async () => {
    const api = fakeTemplatesApi({ email: [notice, hindi] });
    const success = vi.spyOn(toast, 'success');
    const user = userEvent.setup();
    const { router } = renderEmailEdit(notice._id);

    const languages = await screen.findByRole('region', { name: 'Languages' });
    const link = screen.getByRole('link', { name: 'Notice Conciliation (Hindi)' });
    expect(languages.contains(link)).toBe(true);
    expect(link.getAttribute('href')).toBe(`/templates/email-templates/edit/${hindi._id}`);
    const select = screen.getByLabelText('Add a language') as HTMLSelectElement;
    const offered = [...select.options].map((option) => option.value);
    expect(offered).not.toContain('hi');
    expect(offered).toEqual(expect.arrayContaining(['ta', 'mr', 'bn', 'ur', 'en']));

    await user.click(screen.getByRole('button', { name: 'Add language' }));
    expect(screen.getByRole('alert').textContent).toBe('Choose a language.');
    await user.selectOptions(select, 'ta');
    await user.click(screen.getByRole('button', { name: 'Add language' }));

    await waitFor(() => expect(success).toHaveBeenCalledWith('Tamil added.'));
    const post = api.requests.find((request) => request.method === 'POST');
    expect(post?.path).toBe(`/api/emailTemplates/${notice._id}/variants`);
    expect(post?.body).toEqual({ language: 'ta' });
    await waitFor(() =>
      expect(router.state.location.pathname).toMatch(/^\/templates\/email-templates\/edit\/.+0002$/),
    );
  });

  it('shows the server’s refusal under the language (409 for a language the template has)', async () => {
    fakeTemplatesApi({
      email: [notice, hindi],
      answer: (request) =>
        request.method === 'POST'
          ? jsonResponse(409, {
              statusCode: 409,
              code: 'CONFLICT',
              message: 'Notice Conciliation already has a Tamil variant.',
              error: { language: 'Notice Conciliation already has a Tamil variant.' },
            })
          : undefined,
    });
    const user = userEvent.setup();
    renderEmailEdit(notice._id);
    await user.selectOptions(await screen.findByLabelText('Add a language'), 'ta');
    await user.click(screen.getByRole('button', { name: 'Add language' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Notice Conciliation already has a Tamil variant.',
    );
  });

  it('says on a variant which language it is, with the way back to its default, and offers no languages', async () => {
    fakeTemplatesApi({ email: [notice, hindi] });
    renderEmailEdit(hindi._id);
    const region = await screen.findByRole('region', { name: 'Language' });
    expect(region.textContent).toContain('The Hindi variant: records whose language is Hindi print it.');
    expect(screen.getByRole('link', { name: 'Edit the default template' }).getAttribute('href')).toBe(
      `/templates/email-templates/edit/${notice._id}`,
    );
    expect(screen.queryByLabelText('Add a language')).toBeNull();
  });

  it('offers no languages on the e-mail subject and body', async () => {
    const subject = emailTemplate(3, {
      key: 'email-subject-notice',
      name: 'Notice e-mail subject',
      html: 'Notice',
    });
    fakeTemplatesApi({ email: [subject] });
    renderEmailEdit(subject._id);
    await screen.findByLabelText('Body');
    expect(screen.queryByRole('region', { name: 'Languages' })).toBeNull();
  });

  it('adds a language to a WhatsApp template as well', async () => {
    const whatsapp = whatsappTemplate(1, { key: 'notice', name: 'Notice Conciliation' });
    const api = fakeTemplatesApi({ whatsapp: [whatsapp] });
    const user = userEvent.setup();
    renderWithApp(<EditWhatsappTemplate id={whatsapp._id} onSaved={() => {}} />, {
      path: `/templates/whatsapp-templates/edit/${whatsapp._id}`,
      session: sessionOf(adminUser),
      routes: [{ path: '/templates/whatsapp-templates/edit/:id', element: <p>variant</p> }],
    });
    expect(await screen.findByText('No language variants yet.')).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Add a language'), 'hi');
    await user.click(screen.getByRole('button', { name: 'Add language' }));
    await waitFor(() =>
      expect(api.requests.find((request) => request.method === 'POST')?.path).toBe(
        `/api/whatsapptemplates/${whatsapp._id}/variants`,
      ),
    );
  });
});
