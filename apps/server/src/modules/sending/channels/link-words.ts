import { languageOf } from '@notice-desk/contract/languages';

/**
 * The words around the link, in the record's language where the notice page has them (English and
 * Hindi, as the page), else English: the e-mail body itself has no language variants.
 */
const linkWordsByLanguage = {
  en: {
    line: 'View this notice online, confirm you received it, or reply to it:',
    button: 'Open the notice page',
    caption: 'View and reply:',
  },
  hi: {
    line: 'यह नोटिस ऑनलाइन देखें, इसकी प्राप्ति की पुष्टि करें या इसका उत्तर दें:',
    button: 'नोटिस का पेज खोलें',
    caption: 'देखें और उत्तर दें:',
  },
} as const;

export const linkWords = (language: string | undefined) =>
  languageOf(language ?? '')?.code === 'hi' ? linkWordsByLanguage.hi : linkWordsByLanguage.en;
