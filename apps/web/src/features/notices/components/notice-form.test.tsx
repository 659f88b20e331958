import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { noticeFields, noticeSteps } from '@notice-desk/contract/notice';
import { fakeRecordsApi, noticeRoutes, sampleRecord } from '../../../testing/fake-records-api.ts';
import { jsonResponse, plainUser, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { EditNotice } from './edit-notice.tsx';
import { NoticeForm } from './notice-form.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const session = sessionOf(plainUser);
const input = (label: string) => screen.getByLabelText(label, { selector: 'input' }) as HTMLInputElement;

describe('NoticeForm', () => {
  it("shows 'City is required!!' under the city field (the spec's defect fixed)", async () => {
    const user = userEvent.setup();
    renderWithApp(<NoticeForm onSaved={() => {}} />, { session });
    for (const fields of noticeSteps.slice(0, 2)) {
      for (const field of fields) {
        await user.click(input(field.label));
        await user.paste('x');
      }
      await user.click(screen.getByRole('button', { name: 'Next' }));
    }

    await user.click(screen.getByRole('button', { name: 'Next' }));

    const city = input('01 City');
    expect(document.getElementById(city.getAttribute('aria-describedby')!)?.textContent).toBe(
      'City is required!!',
    );
  });

  it("posts every field with the optional ones empty and shows 'Notice Created Successfully.'", async () => {
    const api = fakeRecordsApi(noticeRoutes, []);
    const success = vi.spyOn(toast, 'success');
    const onSaved = vi.fn();
    const user = userEvent.setup();
    renderWithApp(<NoticeForm onSaved={onSaved} />, { session });

    for (const [index, fields] of noticeSteps.entries()) {
      for (const field of fields.filter((candidate) => 'required' in candidate)) {
        await user.click(input(field.label));
        await user.paste(`${field.key} new`);
      }
      await user.click(
        screen.getByRole('button', { name: index === noticeSteps.length - 1 ? 'Submit' : 'Next' }),
      );
    }

    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(success).toHaveBeenCalledWith('Notice Created Successfully.');
    const post = api.requests.find((request) => request.method === 'POST');
    expect(post?.path).toBe('/api/notices');
    expect(post?.body).toMatchObject({
      loanNo: 'loanNo new',
      region: '',
      callManager: '',
      remark: 'remark new',
    });
    expect(Object.keys(post?.body as object).sort()).toEqual(noticeFields.map((field) => field.key).sort());
  });
});

describe('EditNotice', () => {
  it("prefills all four steps, puts the change and shows 'Notice Updated Successfully.'", async () => {
    const stored = sampleRecord(noticeFields, 3, { custName: 'Ravi Kumar' });
    const api = fakeRecordsApi(noticeRoutes, [stored]);
    const success = vi.spyOn(toast, 'success');
    const onSaved = vi.fn();
    const user = userEvent.setup();
    renderWithApp(<EditNotice id={stored._id} onSaved={onSaved} />, { session });

    await waitFor(() => expect(input('Customer Name').value).toBe('Ravi Kumar'));
    expect(screen.getByText('Step 1 of 4')).toBeTruthy();
    for (let step = 1; step < noticeSteps.length; step += 1) {
      await user.click(screen.getByRole('button', { name: 'Next' }));
    }
    expect(input('Mode Of Dispatch').value).toBe('modeOfDispatch 3');
    await user.clear(input('Remark'));
    await user.type(input('Remark'), 'Called twice');
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(success).toHaveBeenCalledWith('Notice Updated Successfully.');
    const put = api.requests.find((request) => request.method === 'PUT');
    expect(put?.path).toBe(`/api/notices/${stored._id}`);
    expect(put?.body).toMatchObject({ custName: 'Ravi Kumar', remark: 'Called twice', city: 'city 3' });
  });

  it('treats an id that cannot be a record id (400) as not found', async () => {
    vi.stubGlobal('fetch', async () =>
      jsonResponse(400, {
        statusCode: 400,
        code: 'VALIDATION',
        message: 'The id is not a record id.',
        error: { id: 'The id is not a record id.' },
      }),
    );
    renderWithApp(<EditNotice id="abc" onSaved={() => {}} />, { session });

    expect((await screen.findByRole('alert')).textContent).toContain('Notice not found.');
    expect(screen.getByRole('link', { name: 'Back to Notice Concialation' }).getAttribute('href')).toBe(
      '/forms/notice',
    );
  });
});
