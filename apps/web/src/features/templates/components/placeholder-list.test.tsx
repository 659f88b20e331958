import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PlaceholderList } from './placeholder-list.tsx';

describe('PlaceholderList', () => {
  it('inserts a clicked field and lists the formats a field takes, with what each prints', async () => {
    const onInsert = vi.fn();
    render(<PlaceholderList placeholders={['custName', 'noticeBalance']} onInsert={onInsert} />);
    await userEvent.click(screen.getByRole('button', { name: 'Insert {{noticeBalance}}' }));
    expect(onInsert).toHaveBeenCalledWith('{{noticeBalance}}');
    expect(screen.getByRole('heading', { name: 'Formats' })).toBeTruthy();
    const terms = screen.getAllByRole('term').map((term) => term.textContent);
    expect(terms).toEqual(['| inr', '| words', '| date']);
    expect(screen.getByText(/₹1,25,000\.50/)).toBeTruthy();
    expect(screen.getByText(/One Lakh Twenty-Five Thousand Rupees and Fifty Paise/)).toBeTruthy();
    expect(screen.getByText(/20-05-2024/)).toBeTruthy();
  });
});
