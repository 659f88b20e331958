import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { creditCardFields } from '@notice-desk/contract/credit-card';
import { creditCardRoutes, fakeRecordsApi, sampleRecord } from '../../../testing/fake-records-api.ts';
import { plainUser, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { CreditCardList } from './credit-card-list.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const creditCard = (n: number, overrides: Record<string, string> = {}) =>
  sampleRecord(creditCardFields, n, overrides);

const renderList = (ui = <CreditCardList />) =>
  renderWithApp(ui, { path: '/forms/credit-card', session: sessionOf(plainUser) });

const bodyRows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

describe('CreditCardList', () => {
  it("shows the spec's columns, the camp date with its first '.' as '-', and an edit link per row", async () => {
    fakeRecordsApi(creditCardRoutes, [
      creditCard(1, {
        custName: 'Asha Rao',
        noticeBalance: '1200',
        maskNo: 'XXXX1111',
        campDate: '12.05.2024',
      }),
      creditCard(2),
    ]);
    renderList();

    expect(await screen.findByRole('cell', { name: 'Asha Rao' })).toBeTruthy();
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'No.',
      'Arqn Name',
      'Notice Balance',
      'Maskcard',
      'Campaign',
      'Date',
      'Action',
    ]);
    const cells = within(bodyRows()[0]!)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(0, 6)).toEqual(['1', 'Asha Rao', '1200', 'XXXX1111', 'March sheet', '12-05.2024']);
    // The campaign's name leads to the campaign, so copies of one card imported twice tell apart.
    expect(screen.getAllByRole('link', { name: 'March sheet' })[0]!.getAttribute('href')).toBe(
      '/campaign/credit-card/campaign-1',
    );
    expect(screen.getByRole('link', { name: 'Edit Asha Rao' }).getAttribute('href')).toBe(
      '/forms/credit-card/edit-credit-card/00000000-0000-4000-8000-000000000001',
    );
    expect(screen.getByText('Showing 1 to 2 of 2 entries')).toBeTruthy();
  });

  it('links a PDF in a new tab only for a record that has one', async () => {
    fakeRecordsApi(
      creditCardRoutes,
      [creditCard(1, { custName: 'With Pdf', pdfLink: 'cc-1.pdf' }), creditCard(2, { custName: 'No Pdf' })],
      '/files/pdfs/',
    );
    renderList();

    const link = await screen.findByRole('link', { name: /^PDF With Pdf/ });
    expect(link.getAttribute('href')).toBe('/files/pdfs/cc-1.pdf');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener');
    expect(screen.queryByRole('link', { name: /^PDF No Pdf/ })).toBeNull();
  });

  it("deletes a row, once confirmed, with the toast 'Credit card deleted successfully.' and reloads the list", async () => {
    const api = fakeRecordsApi(creditCardRoutes, [
      creditCard(1, { custName: 'Asha Rao', maskNo: 'XXXX-1234' }),
      creditCard(2),
    ]);
    const success = vi.spyOn(toast, 'success');
    const user = userEvent.setup();
    renderList();

    await user.click(await screen.findByRole('button', { name: 'Delete Asha Rao' }));
    const dialog = screen.getByRole('dialog', {
      name: 'Delete the credit card for Asha Rao (XXXX-1234)? If it was served, it is archived with its evidence; if not, it cannot be brought back.',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(success).toHaveBeenCalledWith('Credit card deleted successfully.'));
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'Asha Rao' })).toBeNull());
    expect(api.requests.find((request) => request.method === 'DELETE')?.path).toBe(
      '/api/credit-cards/00000000-0000-4000-8000-000000000001',
    );
    expect(bodyRows()).toHaveLength(1);
  });

  it('asks before Delete All, does nothing on Cancel, and deletes everything on confirming', async () => {
    const api = fakeRecordsApi(creditCardRoutes, [creditCard(1), creditCard(2)]);
    const success = vi.spyOn(toast, 'success');
    const user = userEvent.setup();
    renderList();
    await screen.findByRole('cell', { name: 'custName 1' });

    await user.click(screen.getByRole('button', { name: 'Delete All' }));
    const dialog = screen.getByRole('dialog', { name: 'Are you sure you want to delete all credit cards?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.requests.some((request) => request.method === 'POST')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Delete All' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete All' }));

    await waitFor(() => expect(success).toHaveBeenCalledWith('All Credit cards deleted successfully.'));
    expect(api.requests.some((request) => request.path === '/api/credit-cards/delete-all-credit-cards')).toBe(
      true,
    );
    expect(await screen.findByText('No records found.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("has 'Add Credit Card' and a disabled 'Import Excel' until the import feature plugs in", async () => {
    fakeRecordsApi(creditCardRoutes, []);
    renderList();
    expect(screen.getByRole('link', { name: 'Add Credit Card' }).getAttribute('href')).toBe(
      '/forms/credit-card/add-credit-card',
    );
    const importButton = screen.getByRole('button', { name: 'Import Excel' });
    expect(importButton).toHaveProperty('disabled', true);
    expect(importButton.getAttribute('title')).toBe('Available soon');
    expect(await screen.findByText('No records found.')).toBeTruthy();
  });

  it('takes the import button from its owner when given one', () => {
    fakeRecordsApi(creditCardRoutes, []);
    renderList(<CreditCardList importExcel={<button type="button">Import Excel</button>} />);
    expect(screen.getByRole('button', { name: 'Import Excel' })).toHaveProperty('disabled', false);
  });

  it('says when the list could not be loaded and loads it again on Retry', async () => {
    const api = fakeRecordsApi(creditCardRoutes, [creditCard(1)]);
    const working = api.fetch.getMockImplementation()!;
    api.fetch.mockImplementationOnce(async () => new Response('down', { status: 503 }));
    const user = userEvent.setup();
    renderList();

    expect((await screen.findByRole('alert')).textContent).toContain('The credit cards could not be loaded.');
    api.fetch.mockImplementation(working);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('cell', { name: 'custName 1' })).toBeTruthy();
  });
});
