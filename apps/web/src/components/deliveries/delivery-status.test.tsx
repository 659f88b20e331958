import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DeliveryStatus, deliveryTone } from './delivery-status.tsx';

describe('DeliveryStatus', () => {
  it("shows '-' for a channel never sent on", () => {
    const { container } = render(<DeliveryStatus status="-" />);
    expect(container.textContent).toBe('-');
    render(<DeliveryStatus status="" />);
    expect(screen.getAllByText('-')).toHaveLength(2);
  });

  it('shows the status word, toned by what it means', () => {
    render(<DeliveryStatus status="outbox" />);
    expect(screen.getByText('outbox')).toBeTruthy();
    expect(['sent', 'delivered', 'read'].map(deliveryTone)).toEqual(['success', 'success', 'success']);
    expect(deliveryTone('outbox')).toBe('neutral');
    expect(deliveryTone('queued')).toBe('pending');
    expect(deliveryTone('failed')).toBe('failure');
  });

  it('shows a bounce red with its reason, and the reason in the page itself for phones, where nothing hovers', () => {
    expect(deliveryTone('bounced')).toBe('failure');
    render(<DeliveryStatus status="bounced" error="The mail server returned it (5.1.1): user unknown" />);
    const badge = screen.getByRole('button', {
      name: 'bounced',
      description: 'The mail server returned it (5.1.1): user unknown',
    });
    expect(badge).toBeTruthy();
    // Not the tooltip (hidden until hover, focus or tap): a second copy, shown below 640 px by CSS.
    const inline = screen
      .getAllByText('The mail server returned it (5.1.1): user unknown')
      .filter((node) => node.getAttribute('role') !== 'tooltip');
    expect(inline).toHaveLength(1);
    expect(inline[0]!.hasAttribute('hidden')).toBe(false);
    expect(inline[0]!.getAttribute('aria-hidden')).toBe('true');
  });

  it('describes a failure with its reason, shown on hover, keyboard focus and tap, hidden by Escape', async () => {
    const user = userEvent.setup();
    render(<DeliveryStatus status="failed" error="550 Mailbox unavailable" />);
    const badge = screen.getByRole('button', { name: 'failed', description: '550 Mailbox unavailable' });
    const tooltip = () => screen.queryByRole('tooltip');
    expect(tooltip()).toBeNull();

    await user.hover(badge);
    expect(tooltip()?.textContent).toBe('550 Mailbox unavailable');
    await user.unhover(badge);
    expect(tooltip()).toBeNull();

    await user.tab();
    expect(document.activeElement).toBe(badge);
    expect(tooltip()).not.toBeNull();
    await user.keyboard('{Escape}');
    expect(tooltip()).toBeNull();
    await user.tab();
    expect(tooltip()).toBeNull();

    // A tap in Safari gives a click without focus: the click alone toggles the reason.
    fireEvent.click(badge);
    expect(tooltip()?.textContent).toBe('550 Mailbox unavailable');
    fireEvent.click(badge);
    expect(tooltip()).toBeNull();
  });

  it('shows a failure without a reason as a plain badge', () => {
    render(<DeliveryStatus status="failed" />);
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByText('failed')).toBeTruthy();
  });
});
