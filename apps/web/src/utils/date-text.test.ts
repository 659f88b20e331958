import { describe, expect, it } from 'vitest';
import { dateTextToPicker, pickerToDateText } from './date-text.ts';

describe('record date text and the date picker', () => {
  it('reads the stored day.month.year text, and other separators, as the picker value', () => {
    expect(dateTextToPicker('12.05.2024')).toBe('2024-05-12');
    expect(dateTextToPicker(' 1/5/2024 ')).toBe('2024-05-01');
    expect(dateTextToPicker('29-02-2024')).toBe('2024-02-29');
    expect(dateTextToPicker('2024-05-12')).toBe('2024-05-12');
  });

  it('leaves the picker empty for text that is no whole date', () => {
    for (const text of ['', 'soon', '31.02.2024', '29.02.2023', '12.13.2024', '12.05.24', '00.01.2024'])
      expect(dateTextToPicker(text), text).toBe('');
  });

  it('writes a picked date as the stored text, and round-trips', () => {
    expect(pickerToDateText('2024-05-12')).toBe('12.05.2024');
    expect(pickerToDateText('')).toBe('');
    expect(pickerToDateText(dateTextToPicker('7.3.2025'))).toBe('07.03.2025');
  });
});
