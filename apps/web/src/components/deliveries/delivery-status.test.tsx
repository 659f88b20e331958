import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DeliveryStatusLegend } from './delivery-status-legend.tsx';
import { DeliveryStatus, deliveryTone } from './delivery-status.tsx';
import { deliveryStatusWord } from './delivery-status-words.ts';

describe('DeliveryStatus', () => {
  it("shows '-' for a channel never sent on", () => {
    const { container } = render(<DeliveryStatus status="-" />);
    expect(container.textContent).toBe('-');
    render(<DeliveryStatus status="" />);
    expect(screen.getAllByText('-')).toHaveLength(2);
  });

  it('reads every status as a word, the outbox saying that nothing was sent', () => {
    const statuses = [
      'queued',
      'sent',
      'delivered',
      'read',
      'failed',
      'bounced',
      'outbox',
      'not_serviceable',
    ];
    expect(statuses.map(deliveryStatusWord)).toEqual([
      'Queued',
      'Sent',
      'Delivered',
      'Read',
      'Failed',
      'Bounced',
      'Outbox (not sent: no provider set up)',
      'Not serviceable',
    ]);
    // A status the web does not know yet still shows, as it came.
    expect(deliveryStatusWord('expired')).toBe('expired');
    const { container } = render(
      <>
        {statuses.map((status) => (
          <DeliveryStatus key={status} status={status} />
        ))}
      </>,
    );
    expect([...container.children].map((badge) => badge.textContent)).toEqual(
      statuses.map(deliveryStatusWord),
    );
  });

  it('shows the status word, toned by what it means', () => {
    render(<DeliveryStatus status="outbox" />);
    expect(screen.getByText('Outbox (not sent: no provider set up)')).toBeTruthy();
    expect(['sent', 'delivered', 'read'].map(deliveryTone)).toEqual(['success', 'success', 'success']);
    expect(deliveryTone('outbox')).toBe('neutral');
    expect(deliveryTone('queued')).toBe('pending');
    expect(deliveryTone('failed')).toBe('failure');
  });

  it('shows a bounce red with its reason, and the reason in the page itself for phones, where nothing hovers', () => {
    expect(deliveryTone('bounced')).toBe('failure');
    render(<DeliveryStatus status="bounced" error="The mail server returned it (5.1.1): user unknown" />);
    const badge = screen.getByRole('button', {
      name: 'Bounced',
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
    const badge = screen.getByRole('button', { name: 'Failed', description: '550 Mailbox unavailable' });
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
    expect(screen.getByText('Failed')).toBeTruthy();
  });
});

describe('DeliveryStatusLegend', () => {
  it("explains each status under 'What the statuses mean', closed until asked", async () => {
    const user = userEvent.setup();
    const { container } = render(<DeliveryStatusLegend />);
    const details = container.querySelector('details')!;
    expect(details.open).toBe(false);
    await user.click(screen.getByText('What the statuses mean'));
    expect(details.open).toBe(true);
    const terms = [...container.querySelectorAll('dt')].map((term) => term.textContent);
    expect(terms).toEqual([
      'Queued',
      'Sent',
      'Delivered',
      'Read',
      'Failed',
      'Bounced',
      'Outbox (not sent: no provider set up)',
      'Not serviceable',
    ]);
    expect(container.querySelectorAll('dd')).toHaveLength(terms.length);
    expect(screen.getByText(/saved to the outbox folder instead/)).toBeTruthy();
  });
});
