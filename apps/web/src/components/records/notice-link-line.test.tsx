import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../testing/stub-fetch.ts';
import { adminUser, jsonResponse, plainUser, renderWithApp, sessionOf } from '../../testing/test-utils.tsx';
import { NoticeLinkLine } from './notice-link-line.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const code = 'AbCdEfGhIjKlMnOpQrStUv';
const link = { code, path: `/n/${code}`, revokedAt: null };

describe('NoticeLinkLine', () => {
  it('says the page comes with the first send, and shows a live link without a revoke to a user', () => {
    const { unmount } = renderWithApp(<NoticeLinkLine link={null} onRevoked={() => {}} />, {
      session: sessionOf(adminUser),
    });
    expect(screen.getByLabelText('Notice page').textContent).toBe('Notice page: made on the first send');
    unmount();
    renderWithApp(<NoticeLinkLine link={link} onRevoked={() => {}} />, { session: sessionOf(plainUser) });
    expect(screen.getByRole('link', { name: `/n/${code}` }).getAttribute('href')).toBe(`/n/${code}`);
    expect(screen.queryByRole('button', { name: 'Revoke notice link' })).toBeNull();
  });

  it('revokes for an ADMIN only after the question, then tells the record to load again', async () => {
    const server = stubFetch(() =>
      jsonResponse(200, { message: 'Revoked.', revokedAt: '2026-11-29T06:00:00Z' }),
    );
    const onRevoked = vi.fn();
    const user = userEvent.setup();
    renderWithApp(<NoticeLinkLine link={link} onRevoked={onRevoked} />, { session: sessionOf(adminUser) });

    await user.click(screen.getByRole('button', { name: 'Revoke notice link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke this notice link?' });
    expect(server.requests).toHaveLength(0);
    // Focus starts on Cancel, the safe answer.
    expect(document.activeElement?.textContent).toBe('Cancel');
    await user.click(
      [...dialog.querySelectorAll('button')].find((b) => b.textContent === 'Revoke notice link')!,
    );

    await waitFor(() => expect(onRevoked).toHaveBeenCalledTimes(1));
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /api/notice-links/${code}/revoke`,
    ]);
  });

  it('shows a revoked link as text, with no way to revoke it again', () => {
    renderWithApp(
      <NoticeLinkLine link={{ ...link, revokedAt: '2026-11-29T06:00:00Z' }} onRevoked={() => {}} />,
      {
        session: sessionOf(adminUser),
      },
    );
    expect(screen.getByLabelText('Notice page').textContent).toBe(`Notice page: /n/${code} revoked`);
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
