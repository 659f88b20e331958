import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeTemplatesApi, whatsappTemplate } from '../../../testing/fake-templates-api.ts';
import { adminUser, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { WhatsappTemplateList } from './whatsapp-template-list.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const renderList = () =>
  renderWithApp(<WhatsappTemplateList />, {
    path: '/templates/whatsapp-templates',
    session: sessionOf(adminUser),
  });

const shownNames = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[1]?.textContent);

describe('WhatsappTemplateList', () => {
  it('asks for the first 50 and shows No., Name, Value and an edit link per row', async () => {
    const template = whatsappTemplate(1, { name: 'Notice WhatsApp', value: 'Dear {{custName}}' });
    const api = fakeTemplatesApi({ whatsapp: [template] });
    renderList();

    expect(await screen.findByRole('cell', { name: 'Notice WhatsApp' })).toBeTruthy();
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'No.',
      'Name',
      'Value',
      'Action',
    ]);
    expect(screen.getByRole('cell', { name: 'Dear {{custName}}' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Edit Notice WhatsApp' }).getAttribute('href')).toBe(
      `/templates/whatsapp-templates/edit/${template._id}`,
    );
    expect(api.requests[0]?.path).toBe('/api/whatsapptemplates/getdata');
    expect(api.requests[0]?.search.get('page')).toBe('1');
    expect(api.requests[0]?.search.get('limit')).toBe('50');
    expect(screen.getByText('Showing 1 to 1 of 1 entries')).toBeTruthy();
  });

  it('filters the rows by name whatever the case of the search', async () => {
    fakeTemplatesApi({
      whatsapp: [
        whatsappTemplate(1, { name: 'Credit Card Reminder' }),
        whatsappTemplate(2, { name: 'Notice Reminder' }),
        whatsappTemplate(3, { name: 'notice follow-up', value: 'credit card' }),
      ],
    });
    const user = userEvent.setup();
    renderList();
    await screen.findByRole('cell', { name: 'Notice Reminder' });

    const search = screen.getByRole('searchbox', { name: 'Search whatsapp templates' });
    await user.type(search, 'NOTICE');
    expect(shownNames()).toEqual(['Notice Reminder', 'notice follow-up']);

    await user.clear(search);
    await user.type(search, 'credit');
    // The value mentions 'credit card' too, but the search reads names only.
    expect(shownNames()).toEqual(['Credit Card Reminder']);
  });
});
