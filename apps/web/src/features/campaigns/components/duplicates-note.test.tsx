import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DuplicatesNote } from './duplicates-note.tsx';

describe('the campaign’s duplicates note', () => {
  it('says what the import did with rows already imported, and how many', () => {
    const { rerender } = render(<DuplicatesNote duplicates={{ choice: 'skip', rows: 12 }} />);
    expect(screen.getByText('Duplicates: skipped (12)')).toBeTruthy();
    rerender(<DuplicatesNote duplicates={{ choice: 'new', rows: 1200 }} />);
    expect(screen.getByText('Duplicates: imported as new records (1,200)')).toBeTruthy();
    rerender(<DuplicatesNote duplicates={{ choice: 'update', rows: 3 }} />);
    expect(screen.getByText('Duplicates: updated where not served (3)')).toBeTruthy();
  });

  it('says nothing for manual entries, older imports and imports that had none', () => {
    for (const duplicates of [undefined, null, { choice: 'skip' as const, rows: 0 }]) {
      const { container, unmount } = render(<DuplicatesNote duplicates={duplicates} />);
      expect(container.textContent).toBe('');
      unmount();
    }
  });
});
