import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CampaignType } from '@notice-desk/contract/campaigns';
import { stubFetch } from '../../../testing/stub-fetch.ts';
import { jsonResponse, plainUser, renderWithApp, sessionOf } from '../../../testing/test-utils.tsx';
import { ExportReportButton } from './export-report-button.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const renderButton = (type: CampaignType) =>
  renderWithApp(<ExportReportButton type={type} campaignId="campaign-1" campaignName="March notices" />, {
    session: sessionOf(plainUser),
  });

const failing = () =>
  stubFetch(() => jsonResponse(500, { statusCode: 500, code: 'INTERNAL', message: 'Down.', error: 'Down.' }));

describe('Export Reports', () => {
  it("downloads the campaign's .xlsx with the bearer token", async () => {
    const server = stubFetch(
      () =>
        new Response(new Blob(['PK']), {
          status: 200,
          headers: { 'content-disposition': 'attachment; filename="March notices report.xlsx"' },
        }),
    );
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:report');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const user = userEvent.setup();
    renderButton('notice');

    await user.click(screen.getByRole('button', { name: 'Export Reports' }));

    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('March notices report.xlsx');
    expect(server.requests[0]?.path).toBe('/api/campaigns/export-reports/notice');
    expect(server.requests[0]?.search.get('campaignid')).toBe('campaign-1');
    expect(server.requests[0]?.request.headers.get('authorization')).toBe('Bearer token-1');
  });

  it("says 'Error downloading the report.' when a notice report fails", async () => {
    failing();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const error = vi.spyOn(toast, 'error');
    const user = userEvent.setup();
    renderButton('notice');

    await user.click(screen.getByRole('button', { name: 'Export Reports' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Error downloading the report.'));
  });

  it('only logs a failed credit-card report', async () => {
    const server = failing();
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const error = vi.spyOn(toast, 'error');
    const user = userEvent.setup();
    renderButton('credit-card');

    await user.click(screen.getByRole('button', { name: 'Export Reports' }));
    await waitFor(() => expect(log).toHaveBeenCalled());
    expect(server.requests[0]?.path).toBe('/api/campaigns/export-reports/credit-card');
    expect(error).not.toHaveBeenCalled();
  });
});
