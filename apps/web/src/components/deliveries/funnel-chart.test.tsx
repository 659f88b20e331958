import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { funnelOf } from '../../testing/funnel.ts';
import { FunnelChart, NOTHING_SENT, shareOfSent } from './funnel-chart.tsx';

/** The chart's rows of one channel as a screen reader reads them: step, count, share. */
const rowsOf = (channel: string) =>
  [...screen.getByRole('table', { name: channel }).querySelectorAll('tbody tr')].map((row) =>
    [...row.querySelectorAll('th, td')].map((cell) => cell.textContent),
  );

const barOf = (channel: string, step: string) =>
  within(screen.getByRole('table', { name: channel }))
    .getByRole('rowheader', { name: step })
    .closest('tr')!
    .querySelector<HTMLElement>('[aria-hidden="true"] > span')!;

describe('FunnelChart', () => {
  it('shows each step’s count and share of those sent, per channel, with a bar as long as the share', () => {
    render(
      <FunnelChart
        funnel={funnelOf(
          {
            sent: 1200,
            delivered: 900,
            opened: 300,
            verified: 240,
            acknowledged: 120,
            disputed: 12,
            settleRequested: 5,
          },
          { sent: 800, delivered: 800, read: 600, opened: 400, verified: 200, acknowledged: 100 },
          {
            sent: 1500,
            delivered: 1300,
            read: 600,
            opened: 650,
            verified: 420,
            acknowledged: 210,
            disputed: 12,
            settleRequested: 6,
          },
        )}
      />,
    );

    expect(rowsOf('E-mail')).toEqual([
      ['Sent', '1,200', '100%'],
      ['Delivered', '900', '75%'],
      ['Read (e-mail has no read receipts)', '–', '–'],
      ['Opened', '300', '25%'],
      ['Verified', '240', '20%'],
      ['Acknowledged', '120', '10%'],
      ['Disputed', '12', '1%'],
      ['Settle asked', '5', '<1%'],
    ]);
    // WhatsApp has read receipts; e-mail has none, so its Read says so instead of 0.
    expect(rowsOf('WhatsApp').slice(0, 3)).toEqual([
      ['Sent', '800', '100%'],
      ['Delivered', '800', '100%'],
      ['Read', '600', '75%'],
    ]);
    expect(rowsOf('Any channel')[0]).toEqual(['Sent', '1,500', '100%']);
    expect(barOf('E-mail', 'Delivered').style.width).toBe('75%');
    expect(barOf('E-mail', 'Disputed').style.width).toBe('1%');
    expect(barOf('WhatsApp', 'Disputed').style.width).toBe('0%');
  });

  it('writes counts as India groups them', () => {
    render(<FunnelChart funnel={funnelOf({ sent: 123456, delivered: 100000 }, {}, { sent: 123456 })} />);
    expect(rowsOf('E-mail')[0]).toEqual(['Sent', '1,23,456', '100%']);
    expect(rowsOf('E-mail')[1]).toEqual(['Delivered', '1,00,000', '81%']);
  });

  it('says a channel with nothing sent has nothing yet, and draws no bars for it', () => {
    render(<FunnelChart funnel={funnelOf({ sent: 10, delivered: 4 }, {}, { sent: 10, delivered: 4 })} />);
    expect(screen.getByText('Nothing sent by WhatsApp yet.')).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'WhatsApp' })).toBeNull();
    expect(screen.getAllByRole('table')).toHaveLength(2);
  });

  it('says nothing was sent yet when no channel sent anything, with no tables', () => {
    render(<FunnelChart funnel={funnelOf()} />);
    expect(screen.getByRole('region', { name: 'How far notices got' })).toBeTruthy();
    expect(screen.getByText(NOTHING_SENT)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows zeros as 0 and 0%, with no bar drawn', () => {
    render(<FunnelChart funnel={funnelOf({ sent: 3 }, {}, { sent: 3 })} />);
    expect(rowsOf('E-mail')[1]).toEqual(['Delivered', '0', '0%']);
    expect(barOf('E-mail', 'Delivered').className).not.toMatch(/some/);
    expect(barOf('E-mail', 'Sent').className).toMatch(/some/);
  });
});

describe('shareOfSent', () => {
  it('rounds to whole per cents that never claim none of some or all of not all', () => {
    expect(shareOfSent(0, 1000)).toBe('0%');
    expect(shareOfSent(1, 1000)).toBe('<1%');
    expect(shareOfSent(4, 1000)).toBe('<1%');
    expect(shareOfSent(5, 1000)).toBe('1%');
    expect(shareOfSent(1, 3)).toBe('33%');
    expect(shareOfSent(2, 3)).toBe('67%');
    expect(shareOfSent(994, 1000)).toBe('99%');
    expect(shareOfSent(995, 1000)).toBe('>99%');
    expect(shareOfSent(999, 1000)).toBe('>99%');
    expect(shareOfSent(1000, 1000)).toBe('100%');
    expect(shareOfSent(1, 1)).toBe('100%');
  });

  it('has no share when nothing was sent', () => {
    expect(shareOfSent(0, 0)).toBe('–');
    expect(shareOfSent(3, 0)).toBe('–');
  });
});
