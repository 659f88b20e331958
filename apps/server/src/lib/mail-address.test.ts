import { describe, expect, it } from 'vitest';
import { singleMailAddress } from './mail-address.ts';

describe('a single checked address', () => {
  it.each(['asha@example.com', 'a.b+tag@mail.example.co.in', "o'brien@example.org"])(
    'accepts %s',
    (address) => {
      expect(singleMailAddress(address)).toBe(address);
    },
  );

  it.each([
    ['a username', 'barsadmin'],
    ['CR LF and a Bcc header', 'ctl\r\nBcc: x@evil.test'],
    ['a list', 'a@example.com, b@evil.test'],
    ['a list with a semicolon', 'a@example.com;b@evil.test'],
    ['a display name', 'Asha <asha@example.com>'],
    ['a group', 'friends: a@example.com, b@evil.test;'],
    ['a quoted local part', '"a b"@example.com'],
    ['a comment', 'asha@example.com (x@evil.test)'],
    ['two @', 'a@evil.test@example.com'],
    ['a line feed', 'asha@example.com\nx@evil.test'],
    ['a NUL', 'asha@example.com\u0000'],
    ['no domain dot', 'asha@localhost'],
    ['a space', 'asha @example.com'],
    ['a 300-character address', `${'a'.repeat(60)}@${'b'.repeat(230)}.com`],
  ])('refuses %s', (_what, text) => {
    expect(singleMailAddress(text)).toBeNull();
  });
});
