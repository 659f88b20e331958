import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emailTemplate, fakeTemplatesApi } from '../../../testing/fake-templates-api.ts';
import { adminUser, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { EmailTemplateList } from './email-template-list.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('EmailTemplateList', () => {
  it('asks for pages of 25, shows No., Name and Action, and pages on', async () => {
    const templates = Array.from({ length: 30 }, (_, index) => emailTemplate(index + 1));
    const api = fakeTemplatesApi({ email: templates });
    const user = userEvent.setup();
    renderWithApp(<EmailTemplateList />, {
      path: '/templates/email-templates',
      session: sessionOf(adminUser),
    });

    expect(await screen.findByRole('cell', { name: 'PDF 25' })).toBeTruthy();
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'No.',
      'Name',
      'Action',
    ]);
    expect(api.requests[0]?.search.get('limit')).toBe('25');
    expect(screen.getByText('Showing 1 to 25 of 30 entries')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Edit PDF 1' }).getAttribute('href')).toBe(
      `/templates/email-templates/edit/${templates[0]!._id}`,
    );

    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(await screen.findByRole('cell', { name: 'PDF 26' })).toBeTruthy();
    expect(screen.getByRole('cell', { name: '26' })).toBeTruthy();
    expect(screen.getByText('Showing 26 to 30 of 30 entries')).toBeTruthy();
  });

  it('searches by name ignoring case', async () => {
    fakeTemplatesApi({
      email: [
        emailTemplate(1, { name: 'Performa Conciliation' }),
        emailTemplate(2, { name: 'DLN Performa' }),
      ],
    });
    const user = userEvent.setup();
    renderWithApp(<EmailTemplateList />, {
      path: '/templates/email-templates',
      session: sessionOf(adminUser),
    });
    await screen.findByRole('cell', { name: 'DLN Performa' });

    await user.type(screen.getByRole('searchbox'), 'dln');

    expect(screen.queryByRole('cell', { name: 'Performa Conciliation' })).toBeNull();
    expect(screen.getByRole('cell', { name: 'DLN Performa' })).toBeTruthy();
  });
});
