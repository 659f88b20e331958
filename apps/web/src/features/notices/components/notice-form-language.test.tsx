import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { noticeFields, noticeSteps } from '@notice-desk/contract/notice';
import { fakeRecordsApi, noticeRoutes, sampleRecord } from '../../../testing/fake-records-api.ts';
import { plainUser, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { EditNotice } from './edit-notice.tsx';
import { NoticeForm } from './notice-form.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const session = sessionOf(plainUser);
const input = (label: string) => screen.getByLabelText(label, { selector: 'input' }) as HTMLInputElement;
/** The note under a field, a live region beside it. */
const noteOf = (field: HTMLInputElement) =>
  field.closest('div')?.querySelector('[aria-live="polite"]')?.textContent;

describe('the notice wizard’s language', () => {
  it('is on the last step, suggests the languages, says which template prints and is posted', async () => {
    const api = fakeRecordsApi(noticeRoutes, []);
    const onSaved = vi.fn();
    const user = userEvent.setup();
    renderWithApp(<NoticeForm onSaved={onSaved} />, { session });
    for (const [index, fields] of noticeSteps.entries()) {
      expect(screen.queryByLabelText('Language'), `step ${index + 1}`).toBe(
        index === noticeSteps.length - 1 ? screen.queryByLabelText('Language') : null,
      );
      for (const field of fields.filter((candidate) => 'required' in candidate)) {
        await user.click(input(field.label));
        await user.paste(`${field.key} new`);
      }
      if (index < noticeSteps.length - 1) await user.click(screen.getByRole('button', { name: 'Next' }));
    }
    const language = input('Language');
    const suggestions = document.getElementById(language.getAttribute('list')!);
    const offered = [...(suggestions?.querySelectorAll('option') ?? [])].map((option) => option.value);
    expect(offered).toEqual(expect.arrayContaining(['Hindi', 'Tamil', 'Marathi', 'Urdu', 'English']));
    await user.type(language, 'हिन्दी');
    expect(noteOf(language)).toBe('Prints the Hindi template where there is one, else the default.');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(api.requests.find((request) => request.method === 'POST')?.body).toMatchObject({
      language: 'हिन्दी',
    });
  });

  it('shows an imported value that names no language, and that the record prints the default template', async () => {
    const stored = sampleRecord(noticeFields, 4, { language: 'Klingon' });
    fakeRecordsApi(noticeRoutes, [stored]);
    const user = userEvent.setup();
    renderWithApp(<EditNotice id={stored._id} onSaved={() => {}} />, { session });
    await waitFor(() => expect(input('Loan No.').value).toBe('loanNo 4'));
    for (let step = 1; step < noticeSteps.length; step += 1)
      await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(input('Language').value).toBe('Klingon');
    expect(noteOf(input('Language'))).toBe(
      '‘Klingon’ is not a language the templates know: this record prints the default template.',
    );
  });
});
