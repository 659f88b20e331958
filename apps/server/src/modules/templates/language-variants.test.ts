import { languageOf, languages, recordLanguageNote } from '@notice-desk/contract/languages';
import { describe, expect, it } from 'vitest';
import { variantFor } from './language-variants.ts';

const base = { id: 'base', language: null, variant_of: null };
const hindi = { id: 'hi', language: 'hi', variant_of: 'base' };
const tamil = { id: 'ta', language: 'ta', variant_of: 'base' };
const otherHindi = { id: 'other-hi', language: 'hi', variant_of: 'other' };
const templates = [otherHindi, base, hindi, tamil];

describe('a record’s language value', () => {
  it('names a language by code, English name or native name, in any case and spacing', () => {
    const said: [string, string][] = [
      ['Hindi', 'hi'],
      ['hi', 'hi'],
      ['हिन्दी', 'hi'],
      ['हिंदी', 'hi'],
      ['  HINDI ', 'hi'],
      ['Tamil', 'ta'],
      ['Tamizh', 'ta'],
      ['ta', 'ta'],
      ['தமிழ்', 'ta'],
      [' t a m i l ', 'ta'],
      ['ta-IN', 'ta'],
      ['hi_IN', 'hi'],
      ['Oriya', 'or'],
      ['ଓଡ଼ିଆ', 'or'],
      // The nukta typed as its own character: the same letter once normalised.
      ['\u0b13\u0b21\u0b3c\u0b3f\u0b06', 'or'],
      ['Bangla', 'bn'],
      ['اردو', 'ur'],
      ['Meitei', 'mni'],
      ['english', 'en'],
    ];
    for (const [value, code] of said) expect(languageOf(value)?.code, value).toBe(code);
  });

  it('names every scheduled language of India and English by its code, name and native name', () => {
    const codes = languages.map((language) => language.code);
    for (const code of ['hi', 'mr', 'bn', 'as', 'pa', 'gu', 'or', 'ta', 'te', 'kn', 'ml', 'ur', 'en'])
      expect(codes).toContain(code);
    expect(languages).toHaveLength(23);
    for (const language of languages)
      for (const name of [language.code, language.name, language.native])
        expect(languageOf(name)?.code, name).toBe(language.code);
  });

  it('names no language when empty or unknown, and the note says which template prints', () => {
    for (const value of ['', '   ', 'Klingon', 'h', 'hindi english', undefined, null, 'x'.repeat(200)])
      expect(languageOf(value), String(value)).toBeUndefined();
    expect(recordLanguageNote('')).toBeUndefined();
    expect(recordLanguageNote('hi')).toBe('Prints the Hindi template where there is one, else the default.');
    expect(recordLanguageNote(' Klingon ')).toBe(
      '‘Klingon’ is not a language the templates know: this record prints the default template.',
    );
  });
});

describe('the variant a record prints', () => {
  it('is the default’s variant in the record’s language, else the default', () => {
    expect(variantFor(base, templates, 'हिन्दी')).toBe(hindi);
    expect(variantFor(base, templates, 'TAMIL')).toBe(tamil);
    expect(variantFor(base, templates, 'Marathi')).toBe(base);
    expect(variantFor(base, templates, 'Klingon')).toBe(base);
    expect(variantFor(base, templates, '')).toBe(base);
    expect(variantFor(base, templates, undefined)).toBe(base);
  });
});
