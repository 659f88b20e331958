import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CallLink, toTelHref } from './call-link.tsx';

// jsdom cannot follow a tel: link; record the activation instead.
const clicks = vi.fn((event: MouseEvent) => event.preventDefault());
beforeEach(() => document.addEventListener('click', clicks));
afterEach(() => {
  document.removeEventListener('click', clicks);
  clicks.mockClear();
});

describe('CallLink', () => {
  it('activates the tel: link for the number once on arrival', () => {
    render(<CallLink phone="+91 98765 43210" />);

    const link = screen.getByRole('link', { name: 'click here' });
    expect(link.getAttribute('href')).toBe('tel:+919876543210');
    expect(clicks).toHaveBeenCalledTimes(1);
    expect(clicks.mock.calls[0]![0].target).toBe(link);
  });

  it('offers the fallback text with the link', () => {
    render(<CallLink phone="12345" />);
    expect(screen.getByText(/If call app didn't open automatically,/).textContent).toBe(
      "If call app didn't open automatically, click here",
    );
  });

  it('keeps only what a dialler understands', () => {
    expect(toTelHref('+1 (555) 010-9999')).toBe('tel:+15550109999');
    expect(toTelHref('javascript:alert(1)')).toBe('tel:1');
  });
});
