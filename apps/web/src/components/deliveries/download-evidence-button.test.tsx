import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { evidencePaths } from '@notice-desk/contract/evidence';
import { stubFetch } from '../../testing/stub-fetch.ts';
import { jsonResponse, plainUser, renderWithApp, sessionOf } from '../../testing/test-utils.tsx';
import { DownloadEvidenceButton, EVIDENCE_FAILED } from './download-evidence-button.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const url = evidencePaths.record('notice', 'n1');

const renderButton = () =>
  renderWithApp(<DownloadEvidenceButton url={url} fileName="evidence LN-1.zip" subject="Ravi Kumar" />, {
    session: sessionOf(plainUser),
  });

const button = () =>
  screen.getByRole('button', { name: /^(Download evidence|Preparing evidence…) for Ravi Kumar$/ });

/** A promise the test settles, to hold the server's answer back. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

describe('DownloadEvidenceButton', () => {
  it('saves the zip the server names, fetched with the bearer token, busy until then', async () => {
    const answer = deferred<Response>();
    const server = stubFetch(() => answer.promise);
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:evidence');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const user = userEvent.setup();
    renderButton();
    expect(button().textContent).toBe('Download evidence for Ravi Kumar');

    await user.click(button());

    await waitFor(() => expect(button().textContent).toBe('Preparing evidence… for Ravi Kumar'));
    expect(button()).toHaveProperty('disabled', true);
    expect(button().getAttribute('aria-busy')).toBe('true');
    answer.resolve(
      new Response(new Blob(['PK']), {
        status: 200,
        headers: { 'content-disposition': 'attachment; filename="evidence-notice-LN-1.zip"' },
      }),
    );
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('evidence-notice-LN-1.zip');
    expect(server.requests[0]?.path).toBe('/api/notices/n1/evidence');
    expect(server.requests[0]?.request.headers.get('authorization')).toBe('Bearer token-1');
    await waitFor(() => expect(button()).toHaveProperty('disabled', false));
  });

  it("shows the server's message as an error toast when the bundle cannot be made", async () => {
    stubFetch(() =>
      jsonResponse(409, {
        statusCode: 409,
        code: 'NOTHING_SENT',
        message: 'This notice was never sent: there is no evidence yet.',
        error: 'This notice was never sent: there is no evidence yet.',
      }),
    );
    const error = vi.spyOn(toast, 'error');
    const user = userEvent.setup();
    renderButton();

    await user.click(button());

    await waitFor(() =>
      expect(error).toHaveBeenCalledWith('This notice was never sent: there is no evidence yet.'),
    );
    await waitFor(() => expect(button()).toHaveProperty('disabled', false));
  });

  it('says the bundle could not be downloaded when the server gave no message', async () => {
    stubFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    const error = vi.spyOn(toast, 'error');
    const user = userEvent.setup();
    renderButton();

    await user.click(button());

    await waitFor(() => expect(error).toHaveBeenCalledWith(EVIDENCE_FAILED));
  });
});
