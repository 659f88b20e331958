/**
 * The languages a template variant may be written in: the 22 scheduled languages of India (Eighth
 * Schedule) and English. A record names its language by code, English name or native name, in any case
 * and spacing; `languageOf` reads all of them.
 */
export interface Language {
  /** ISO 639-1 where there is one, else ISO 639-2/3: what a variant stores. */
  code: string;
  /** The English name, as the PDF Editor shows it. */
  name: string;
  /** The name in its own script. */
  native: string;
  /** Other spellings a sheet may use: older names, ISO 639-2 codes, other scripts. */
  aliases: readonly string[];
}

export const languages = [
  { code: 'en', name: 'English', native: 'English', aliases: ['eng', 'angrezi', 'अंग्रेज़ी', 'अंग्रेजी'] },
  { code: 'hi', name: 'Hindi', native: 'हिन्दी', aliases: ['hin', 'हिंदी'] },
  { code: 'mr', name: 'Marathi', native: 'मराठी', aliases: ['mar'] },
  { code: 'bn', name: 'Bengali', native: 'বাংলা', aliases: ['ben', 'Bangla'] },
  { code: 'as', name: 'Assamese', native: 'অসমীয়া', aliases: ['asm', 'Asamiya'] },
  { code: 'pa', name: 'Punjabi', native: 'ਪੰਜਾਬੀ', aliases: ['pan', 'Panjabi'] },
  { code: 'gu', name: 'Gujarati', native: 'ગુજરાતી', aliases: ['guj'] },
  { code: 'or', name: 'Odia', native: 'ଓଡ଼ିଆ', aliases: ['ori', 'ory', 'Oriya', 'Odiya'] },
  { code: 'ta', name: 'Tamil', native: 'தமிழ்', aliases: ['tam', 'Tamizh'] },
  { code: 'te', name: 'Telugu', native: 'తెలుగు', aliases: ['tel'] },
  { code: 'kn', name: 'Kannada', native: 'ಕನ್ನಡ', aliases: ['kan'] },
  { code: 'ml', name: 'Malayalam', native: 'മലയാളം', aliases: ['mal'] },
  { code: 'ur', name: 'Urdu', native: 'اردو', aliases: ['urd'] },
  { code: 'brx', name: 'Bodo', native: 'बड़ो', aliases: ['बोडो'] },
  { code: 'doi', name: 'Dogri', native: 'डोगरी', aliases: [] },
  { code: 'ks', name: 'Kashmiri', native: 'كٲشُر', aliases: ['kas', 'कॉशुर'] },
  { code: 'kok', name: 'Konkani', native: 'कोंकणी', aliases: [] },
  { code: 'mai', name: 'Maithili', native: 'मैथिली', aliases: [] },
  { code: 'mni', name: 'Manipuri', native: 'মৈতৈলোন্', aliases: ['Meitei', 'Meiteilon', 'ꯃꯤꯇꯩꯂꯣꯟ'] },
  { code: 'ne', name: 'Nepali', native: 'नेपाली', aliases: ['nep'] },
  { code: 'sa', name: 'Sanskrit', native: 'संस्कृतम्', aliases: ['san', 'संस्कृत'] },
  { code: 'sat', name: 'Santali', native: 'ᱥᱟᱱᱛᱟᱲᱤ', aliases: [] },
  { code: 'sd', name: 'Sindhi', native: 'سنڌي', aliases: ['snd', 'सिन्धी', 'सिंधी'] },
] as const satisfies readonly Language[];

/**
 * Compared as: NFC (so a nukta typed apart or precomposed is one letter), lower case, without spaces,
 * dots, hyphens, underscores or zero-width characters.
 */
const comparable = (text: string) =>
  text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[\s._\-\u200b-\u200d\u2060\ufeff]/g, '');

const byComparable = new Map<string, Language>();
for (const language of languages as readonly Language[])
  for (const name of [language.code, language.name, language.native, ...language.aliases])
    byComparable.set(comparable(name), language);

/** A region after the language ('hi-IN', 'ta_IN') names the same language. */
const localeTag = /^([a-z]{2,3})[-_][a-z]{2}$/i;

/**
 * The language a record's value names (`Hindi`, `hi`, `हिन्दी`, ` TAMIL `, `ta-IN`), or undefined for an
 * empty value or one that names no language above.
 */
export function languageOf(value: string | null | undefined): Language | undefined {
  if (!value || value.length > 100) return undefined;
  const tagged = localeTag.exec(value.trim());
  return byComparable.get(comparable(tagged ? tagged[1]! : value));
}

/** A language by its code, as a variant stores it. */
export function languageByCode(code: string | null | undefined): Language | undefined {
  return code ? (languages as readonly Language[]).find((language) => language.code === code) : undefined;
}

/**
 * What a record's language value means for its notice, in words a user reads beside the field:
 * undefined when empty (the default template).
 */
export function recordLanguageNote(value: string | null | undefined): string | undefined {
  if (!value?.trim()) return undefined;
  const language = languageOf(value);
  if (language) return `Prints the ${language.name} template where there is one, else the default.`;
  return `‘${value.trim()}’ is not a language the templates know: this record prints the default template.`;
}
