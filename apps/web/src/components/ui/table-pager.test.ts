import { describe, expect, it } from 'vitest';
import { pagerText, pageWindow } from './table-pager.tsx';

describe('pagerText', () => {
  it("reads 'Showing X to Y of N entries' with X = (page-1)*limit+1", () => {
    expect(pagerText(1, 10, 25)).toBe('Showing 1 to 10 of 25 entries');
    expect(pagerText(2, 10, 25)).toBe('Showing 11 to 20 of 25 entries');
    expect(pagerText(3, 10, 25)).toBe('Showing 21 to 25 of 25 entries');
  });

  it('starts at 0 when there are no entries', () => {
    expect(pagerText(1, 10, 0)).toBe('Showing 0 to 0 of 0 entries');
  });
});

describe('pageWindow', () => {
  it('lists every page when there are few', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(3, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("keeps the first, the last and the current page's neighbours when there are many", () => {
    expect(pageWindow(1, 1000)).toEqual([1, 2, 3, 4, 5, 'gap-after', 1000]);
    expect(pageWindow(500, 1000)).toEqual([1, 'gap-before', 499, 500, 501, 'gap-after', 1000]);
    expect(pageWindow(1000, 1000)).toEqual([1, 'gap-before', 996, 997, 998, 999, 1000]);
  });
});
