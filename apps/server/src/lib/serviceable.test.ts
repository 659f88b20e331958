import { describe, expect, it } from 'vitest';
import type { FieldDefinition } from '@notice-desk/contract/record-fields';
import { mailUnserviceableReason, mobileUnserviceableReason } from './serviceable.ts';

describe('e-mail serviceability', () => {
  it.each([
    'asha@example.com',
    'a.b+notice-28@mail.example.co.in',
    "o'brien@example.org",
    'ravi@उदाहरण.भारत',
    'ravi@bücher.example',
    '  padded@example.com  ',
  ])('serves %s', (address) => {
    expect(mailUnserviceableReason(address)).toBeNull();
  });

  it.each([
    ['two @', 'cust23@@example', 'more than one @'],
    ['no @', 'cust23.example.com', 'no @ in the address'],
    ['no domain', 'cust23@', 'no domain after the @'],
    ['no dot in the domain', 'cust23@example', 'no dot in the domain'],
    ['a trailing dot', 'cust23@example.com.', 'the domain ends with a dot'],
    ['a space', 'cust 23@example.com', 'the address contains a space'],
    ['two addresses', 'a@example.com, b@example.com', 'more than one address in the cell'],
    ['two addresses by semicolon', 'a@example.com;b@example.com', 'more than one address in the cell'],
    ['empty', '   ', 'no e-mail address'],
    ['a header injection', 'ctl\r\nBcc: x@evil.test', 'the address contains a space'],
    ['a display name', 'Asha <asha@example.com>', 'the address contains a space'],
    ['a bad label', 'asha@-example.com', 'not a valid e-mail address'],
  ])('does not serve %s', (_what, text, reason) => {
    expect(mailUnserviceableReason(text)).toBe(reason);
  });
});

describe('mobile serviceability (country code 91)', () => {
  it.each([
    '+91 98765 43210',
    '098765 43210',
    '919876543210',
    '9876543210',
    '0091-98765-43210',
    '+44 7700 900123',
  ])('serves %s', (number) => {
    expect(mobileUnserviceableReason(number, '91')).toBeNull();
  });

  it.each([
    ['too short', '98765'],
    ['11 digits not starting 0 or 91', '98765432101'],
    ['starting 5 after the code', '+91 58765 43210'],
    ['starting 0 after the code', '910876543210'],
    ['ten digits starting 1', '1234567890'],
    ['letters', '98765 4321O'],
    ['two numbers', '9876543210/9876543211'],
    ['empty', ''],
    ['13 digits with 91', '9198765432101'],
  ])('does not serve %s', (_what, text) => {
    expect(mobileUnserviceableReason(text, '91')).not.toBeNull();
  });

  it('judges a number without a prefix by another code by length alone', () => {
    expect(mobileUnserviceableReason('5551234567', '1')).toBeNull();
  });
});

describe('the record forms’ notes (the same rule, in the contract the web runs)', () => {
  it('warn under an e-mail or mobile that cannot be served, and say nothing when empty or servable', async () => {
    const { emailFieldNote, mobileFieldNote } = await import('@notice-desk/contract/serviceable');
    expect(emailFieldNote('cust23@@example')).toBe(
      'Not serviceable by e-mail: more than one @. It saves, but a send leaves it out.',
    );
    expect(mobileFieldNote('98765')).toBe(
      'Not serviceable by WhatsApp: not a mobile number (too short or too long). It saves, but a send leaves it out.',
    );
    expect(emailFieldNote('')).toBeUndefined();
    expect(emailFieldNote('asha@example.com')).toBeUndefined();
    expect(mobileFieldNote('+91 98765 43210')).toBeUndefined();
  });

  it('are on the e-mail and mobile fields of both record kinds', async () => {
    const { noticeFields } = await import('@notice-desk/contract/notice');
    const { creditCardFields } = await import('@notice-desk/contract/credit-card');
    for (const fields of [noticeFields, creditCardFields]) {
      const byKey = new Map<string, FieldDefinition>(fields.map((field) => [field.key, field]));
      expect(byKey.get('emailId')?.note?.('a@b')).toContain('no dot in the domain');
      expect(byKey.get('custMobileNo')?.note?.('12345')).toContain('Not serviceable by WhatsApp');
    }
  });
});
