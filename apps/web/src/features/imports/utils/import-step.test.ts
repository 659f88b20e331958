import { describe, expect, it } from 'vitest';
import { importStep, progressValue } from './import-step.ts';

describe('importStep', () => {
  it('keeps polling while the import is queued or running', () => {
    expect(importStep({ progressPercentage: 0, status: 'queued' })).toBe('running');
    expect(importStep({ progressPercentage: 42, status: 'running' })).toBe('running');
  });

  it('is done at 100%', () => {
    expect(importStep({ progressPercentage: 100, status: 'done' })).toBe('done');
    expect(importStep({ progressPercentage: 100 })).toBe('done');
  });

  it('is failed when the server says so, whatever the percentage', () => {
    expect(importStep({ progressPercentage: null, status: 'failed', error: 'No header row.' })).toBe(
      'failed',
    );
  });

  it('knows when there never was an import', () => {
    expect(importStep({ progressPercentage: null })).toBe('none');
  });
});

describe('progressValue', () => {
  it('is a whole percentage from 0 to 100, 0 when unknown', () => {
    expect(progressValue(undefined)).toBe(0);
    expect(progressValue({ progressPercentage: null })).toBe(0);
    expect(progressValue({ progressPercentage: 41.6 })).toBe(42);
    expect(progressValue({ progressPercentage: 140 })).toBe(100);
  });
});
