import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditEntry } from '@notice-desk/contract/audit';
import { stubFetch } from '../../../testing/stub-fetch.ts';
import { adminUser, jsonResponse, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { DATE_ORDER_MESSAGE } from './audit-filters.tsx';
import { AuditLog, auditTime, NO_AUDIT_ENTRIES } from './audit-log.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const asha = { _id: 'u1', username: 'asha', name: 'Asha Admin', usernameThen: 'asha' };

const entry = (n: number, overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  _id: `audit-${n}`,
  at: '2026-11-23T09:15:42.000Z',
  actor: asha,
  action: 'record.create',
  subjectType: 'notice',
  subjectId: `record-${n}`,
  summary: `Notice for Customer ${n}`,
  before: null,
  after: { custName: `Customer ${n}` },
  ...overrides,
});

const edit = entry(1, {
  action: 'record.update',
  summary: 'Notice for Ravi Kumar',
  before: { custName: 'Ravi', remark: 'same', loanNo: 'LN-1' },
  after: { custName: 'Ravi Kumar', remark: 'same', loanNo: '' },
});

/** GET /api/audit over `entries`, paged as asked; `answer` may answer first. */
function auditServer(entries: AuditEntry[], answer?: () => Response | undefined) {
  return stubFetch(({ search }) => {
    const early = answer?.();
    if (early) return early;
    const page = Number(search.get('page'));
    const limit = Number(search.get('limit'));
    return jsonResponse(200, {
      items: entries.slice((page - 1) * limit, page * limit),
      total: entries.length,
      timeZone: 'Asia/Kolkata',
    });
  });
}

const renderLog = () => renderWithApp(<AuditLog />, { path: '/audit-log', session: sessionOf(adminUser) });

const bodyRows = () =>
  within(screen.getByRole('table', { name: 'Audit entries' }))
    .getAllByRole('row')
    .slice(1);

describe('AuditLog', () => {
  it('lists entries newest first as the server pages them: time, who, action label, summary', async () => {
    const server = auditServer([entry(2, { actor: null, action: 'notice.send', summary: '3 notices' })]);
    renderLog();

    await screen.findByRole('cell', { name: '3 notices' });
    expect(
      within(screen.getByRole('table', { name: 'Audit entries' }))
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Time (Asia/Kolkata)', 'Who', 'Action', 'Summary', 'Changes']);
    const cells = within(bodyRows()[0]!).getAllByRole('cell');
    // The server's TIME_ZONE, whatever the browser's: 09:15:42 UTC is 14:45:42 in India.
    expect(cells.map((cell) => cell.textContent).slice(0, 4)).toEqual([
      '23 Nov 2026, 14:45:42',
      'System',
      'Sent notices',
      '3 notices',
    ]);
    expect(cells[0]!.textContent).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}:\d{2}$/);
    expect(cells[0]!.querySelector('time')?.getAttribute('dateTime')).toBe('2026-11-23T09:15:42.000Z');
    expect(auditTime('2026-11-23T20:00:00.000Z', 'Asia/Kolkata')).toBe('24 Nov 2026, 01:30:00');
    expect(auditTime('2026-11-23T20:00:00.000Z', 'UTC')).toBe('23 Nov 2026, 20:00:00');
    expect(server.requests[0]?.path).toBe('/api/audit');
    expect(server.requests[0]?.search.toString()).toBe('page=1&limit=25');
    expect(server.requests[0]?.request.headers.get('authorization')).toBe('Bearer token-1');
  });

  it("names who did it with their username, and offers an edit's changed fields only, folded", async () => {
    const user = userEvent.setup();
    auditServer([edit, entry(2, { actor: { ...asha, usernameThen: 'asha.k' } })]);
    renderLog();

    const disclosure = await screen.findByText(/^Show changes/);
    expect(within(bodyRows()[0]!).getAllByRole('cell')[1]!.textContent).toBe('Asha Admin (asha)');
    // Done under another name: the name now and the name then.
    const renamed = screen.getByRole('cell', { name: 'Notice for Customer 2' }).closest('tr')!;
    expect(within(renamed).getAllByRole('cell')[1]!.textContent).toBe('Asha Admin (asha, then asha.k)');
    expect(disclosure.textContent).toContain('(2 fields changed)');
    // A creation has no before to compare.
    expect(within(bodyRows()[1]!).queryByText(/^Show changes/)).toBeNull();
    const details = disclosure.closest('details')!;
    expect(details.open).toBe(false);

    await user.click(disclosure);

    expect(details.open).toBe(true);
    const changes = within(details).getByRole('table');
    const rows = within(changes)
      .getAllByRole('row')
      .map((row) => [...row.children].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Field', 'Before', 'After'],
      ['Customer Name', 'Ravi', 'Ravi Kumar'],
      ['Loan No.', 'LN-1', '(empty)'],
    ]);
  });

  it('applies the filters together, back on page 1, and clears them', async () => {
    const user = userEvent.setup();
    const server = auditServer(Array.from({ length: 30 }, (_, index) => entry(index + 1)));
    renderLog();
    await screen.findByRole('cell', { name: 'Notice for Customer 1' });
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(server.requests.at(-1)?.search.get('page')).toBe('2'));

    await user.selectOptions(screen.getByRole('combobox', { name: 'Action' }), 'Edited a record');
    await user.type(screen.getByRole('textbox', { name: 'Who (username)' }), ' asha ');
    await user.type(screen.getByLabelText('From'), '2026-11-01');
    await user.type(screen.getByLabelText('To'), '2026-11-23');
    expect(server.requests).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));

    await waitFor(() =>
      expect(server.requests.at(-1)?.search.toString()).toBe(
        'page=1&limit=25&action=record.update&actor=asha&from=2026-11-01&to=2026-11-23',
      ),
    );

    await user.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(server.requests.at(-1)?.search.toString()).toBe('page=1&limit=25'));
    expect((screen.getByRole('combobox', { name: 'Action' }) as HTMLSelectElement).value).toBe('');
  });

  it('refuses a range that ends before it starts, under To, without asking the server', async () => {
    const user = userEvent.setup();
    const server = auditServer([entry(1)]);
    renderLog();
    await screen.findByRole('cell', { name: 'Notice for Customer 1' });

    await user.type(screen.getByLabelText('From'), '2026-11-20');
    await user.type(screen.getByLabelText('To'), '2026-11-02');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));

    const to = screen.getByLabelText('To');
    expect(to.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(to.getAttribute('aria-describedby')!)?.textContent).toBe(
      DATE_ORDER_MESSAGE,
    );
    expect(document.activeElement).toBe(to);
    expect(server.requests).toHaveLength(1);
  });

  it(`says '${NO_AUDIT_ENTRIES}' when nothing matches`, async () => {
    auditServer([]);
    renderLog();
    expect(await screen.findByText(NO_AUDIT_ENTRIES)).toBeTruthy();
    expect(screen.getByText('Showing 0 to 0 of 0 entries')).toBeTruthy();
  });

  it("shows a spinner while loading, then the server's message and Retry when it fails", async () => {
    const user = userEvent.setup();
    let failing = true;
    const server = auditServer([entry(1)], () =>
      failing
        ? jsonResponse(403, {
            statusCode: 403,
            code: 'FORBIDDEN',
            message: 'Only an ADMIN may do that.',
            error: 'Only an ADMIN may do that.',
          })
        : undefined,
    );
    renderLog();
    expect(screen.getByRole('status').textContent).toBe('Loading audit entries');

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Only an ADMIN may do that.');

    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    await screen.findByRole('cell', { name: 'Notice for Customer 1' });
    expect(server.requests).toHaveLength(2);
  });
});
