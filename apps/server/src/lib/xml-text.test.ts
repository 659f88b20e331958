import { describe, expect, it } from 'vitest';
import { exportableText } from './xml-text.ts';

describe('exportableText', () => {
  it('shows every character XML 1.0 forbids as U+FFFD', () => {
    const forbidden = [
      ...Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code)).filter(
        (c) => !'\t\n\r'.includes(c),
      ),
      '\uFFFE',
      '\uFFFF',
      '\uD800', // a lone high surrogate
      '\uDFFF', // a lone low surrogate
    ];
    expect(forbidden).toHaveLength(33);
    for (const c of forbidden) expect(exportableText(`a${c}b`), `U+${c.charCodeAt(0)}`).toBe('a\uFFFDb');
  });

  it('shows the other non-characters, DEL and surrogates in the wrong order as U+FFFD too', () => {
    for (const c of ['\uFDD0', '\uFDEF', '\u{1FFFE}', '\u{1FFFF}', '\u{10FFFE}', '\u{10FFFF}', '\x7F'])
      expect(exportableText(`a${c}b`)).toBe('a\uFFFDb');
    expect(exportableText('\uDC00\uD800')).toBe('\uFFFD\uFFFD');
  });

  it('keeps everything else as it is: tabs, line breaks, every script, emoji, private use', () => {
    const text = 'Asha\tRao\r\nआशा राव ಆಶಾ 😀 \u0085\u00A0\uE000\uFFFD\u{10000}\u{10FFFD} =1+1';
    expect(exportableText(text)).toBe(text);
  });
});
