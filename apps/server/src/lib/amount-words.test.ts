import { describe, expect, it } from 'vitest';
import { amountLanguages } from './amount-words.ts';
import { amountInWords } from './indian-format.ts';

/** The amounts each language is checked at: the irregular words, each group word and the longest common amounts. */
const amounts = [
  '0',
  '1',
  '11',
  '19',
  '21',
  '99',
  '100',
  '101',
  '1,000',
  '1,00,000',
  '12,50,000.50',
  '1,00,00,000',
  '99,99,99,999.99',
];

/**
 * What each amount says, checked word by word against CLDR's spell-out rules for the language (the
 * numbers 0–99, the hundreds and the joined group words: Marathi एकशे, Kannada ಲಕ್ಷದ, Malayalam
 * ലക്ഷത്തി, Telugu నూట, లక్షల) and the language's words for rupee, paisa and 'and'.
 */
const expected: Record<string, string[]> = {
  hi: [
    'शून्य रुपये',
    'एक रुपया',
    'ग्यारह रुपये',
    'उन्नीस रुपये',
    'इक्कीस रुपये',
    'निन्यानबे रुपये',
    'एक सौ रुपये',
    'एक सौ एक रुपये',
    'एक हजार रुपये',
    'एक लाख रुपये',
    'बारह लाख पचास हजार रुपये और पचास पैसे',
    'एक करोड़ रुपये',
    'निन्यानबे करोड़ निन्यानबे लाख निन्यानबे हजार नौ सौ निन्यानबे रुपये और निन्यानबे पैसे',
  ],
  mr: [
    'शून्य रुपये',
    'एक रुपया',
    'अकरा रुपये',
    'एकोणीस रुपये',
    'एकवीस रुपये',
    'नव्व्याण्णव रुपये',
    'शंभर रुपये',
    'एकशे एक रुपये',
    'एक हजार रुपये',
    'एक लाख रुपये',
    'बारा लाख पन्नास हजार रुपये आणि पन्नास पैसे',
    'एक कोटी रुपये',
    'नव्व्याण्णव कोटी नव्व्याण्णव लाख नव्व्याण्णव हजार नऊशे नव्व्याण्णव रुपये आणि नव्व्याण्णव पैसे',
  ],
  bn: [
    'শূন্য টাকা',
    'এক টাকা',
    'এগারো টাকা',
    'উনিশ টাকা',
    'একুশ টাকা',
    'নিরানব্বই টাকা',
    'একশো টাকা',
    'একশো এক টাকা',
    'এক হাজার টাকা',
    'এক লাখ টাকা',
    'বারো লাখ পঞ্চাশ হাজার টাকা এবং পঞ্চাশ পয়সা',
    'এক কোটি টাকা',
    'নিরানব্বই কোটি নিরানব্বই লাখ নিরানব্বই হাজার নয়শো নিরানব্বই টাকা এবং নিরানব্বই পয়সা',
  ],
  gu: [
    'શૂન્ય રૂપિયા',
    'એક રૂપિયો',
    'અગિયાર રૂપિયા',
    'ઓગણીસ રૂપિયા',
    'એકવીસ રૂપિયા',
    'નવ્વાણું રૂપિયા',
    'એક સો રૂપિયા',
    'એક સો એક રૂપિયા',
    'એક હજાર રૂપિયા',
    'એક લાખ રૂપિયા',
    'બાર લાખ પચાસ હજાર રૂપિયા અને પચાસ પૈસા',
    'એક કરોડ રૂપિયા',
    'નવ્વાણું કરોડ નવ્વાણું લાખ નવ્વાણું હજાર નવ સો નવ્વાણું રૂપિયા અને નવ્વાણું પૈસા',
  ],
  pa: [
    'ਸਿਫ਼ਰ ਰੁਪਏ',
    'ਇੱਕ ਰੁਪਇਆ',
    'ਗਿਆਰਾਂ ਰੁਪਏ',
    'ਉੱਨੀ ਰੁਪਏ',
    'ਇੱਕੀ ਰੁਪਏ',
    'ਨੜ੍ਹਿੰਨਵੇ ਰੁਪਏ',
    'ਇੱਕ ਸੌ ਰੁਪਏ',
    'ਇੱਕ ਸੌ ਇੱਕ ਰੁਪਏ',
    'ਇੱਕ ਹਜ਼ਾਰ ਰੁਪਏ',
    'ਇੱਕ ਲੱਖ ਰੁਪਏ',
    'ਬਾਰਾਂ ਲੱਖ ਪੰਜਾਹ ਹਜ਼ਾਰ ਰੁਪਏ ਅਤੇ ਪੰਜਾਹ ਪੈਸੇ',
    'ਇੱਕ ਕਰੋੜ ਰੁਪਏ',
    'ਨੜ੍ਹਿੰਨਵੇ ਕਰੋੜ ਨੜ੍ਹਿੰਨਵੇ ਲੱਖ ਨੜ੍ਹਿੰਨਵੇ ਹਜ਼ਾਰ ਨੌਂ ਸੌ ਨੜ੍ਹਿੰਨਵੇ ਰੁਪਏ ਅਤੇ ਨੜ੍ਹਿੰਨਵੇ ਪੈਸੇ',
  ],
  or: [
    'ଶୂନ୍ୟ ଟଙ୍କା',
    'ଏକ ଟଙ୍କା',
    'ଏଗାର ଟଙ୍କା',
    'ଊଣେଇଶ ଟଙ୍କା',
    'ଏକୋଇଶ ଟଙ୍କା',
    'ନିଆଁନବେ ଟଙ୍କା',
    'ଶହେ ଟଙ୍କା',
    'ଶହେ ଏକ ଟଙ୍କା',
    'ଏକ ହଜାର ଟଙ୍କା',
    'ଏକ ଲକ୍ଷ ଟଙ୍କା',
    'ବାର ଲକ୍ଷ ପଚାଶ ହଜାର ଟଙ୍କା ଓ ପଚାଶ ପଇସା',
    'ଏକ କୋଟି ଟଙ୍କା',
    'ନିଆଁନବେ କୋଟି ନିଆଁନବେ ଲକ୍ଷ ନିଆଁନବେ ହଜାର ନଅ ଶହ ନିଆଁନବେ ଟଙ୍କା ଓ ନିଆଁନବେ ପଇସା',
  ],
  kn: [
    'ಸೊನ್ನೆ ರೂಪಾಯಿಗಳು',
    'ಒಂದು ರೂಪಾಯಿ',
    'ಹನ್ನೊಂದು ರೂಪಾಯಿಗಳು',
    'ಹತ್ತೊಂಬತ್ತು ರೂಪಾಯಿಗಳು',
    'ಇಪ್ಪತ್ತೊಂದು ರೂಪಾಯಿಗಳು',
    'ತೊಂಬತ್ತೊಂಬತ್ತು ರೂಪಾಯಿಗಳು',
    'ನೂರು ರೂಪಾಯಿಗಳು',
    'ನೂರ ಒಂದು ರೂಪಾಯಿಗಳು',
    'ಸಾವಿರ ರೂಪಾಯಿಗಳು',
    'ಒಂದು ಲಕ್ಷ ರೂಪಾಯಿಗಳು',
    'ಹನ್ನೆರಡು ಲಕ್ಷದ ಐವತ್ತು ಸಾವಿರ ರೂಪಾಯಿಗಳು ಮತ್ತು ಐವತ್ತು ಪೈಸೆ',
    'ಒಂದು ಕೋಟಿ ರೂಪಾಯಿಗಳು',
    'ತೊಂಬತ್ತೊಂಬತ್ತು ಕೋಟಿಯ ತೊಂಬತ್ತೊಂಬತ್ತು ಲಕ್ಷದ ತೊಂಬತ್ತೊಂಬತ್ತು ಸಾವಿರದ ಒಂಬೈನೂರ ತೊಂಬತ್ತೊಂಬತ್ತು ರೂಪಾಯಿಗಳು ಮತ್ತು ತೊಂಬತ್ತೊಂಬತ್ತು ಪೈಸೆ',
  ],
  ml: [
    'പൂജ്യം രൂപ',
    'ഒരു രൂപ',
    'പതിനൊന്ന് രൂപ',
    'പത്തൊൻപത് രൂപ',
    'ഇരുപത്തിയൊന്ന് രൂപ',
    'തൊണ്ണൂറ്റിയൊൻപത് രൂപ',
    'നൂറ് രൂപ',
    'നൂറ്റിയൊന്ന് രൂപ',
    'ആയിരം രൂപ',
    'ഒരു ലക്ഷം രൂപ',
    'പന്ത്രണ്ട് ലക്ഷത്തി അൻപതായിരം രൂപ അൻപത് പൈസ',
    'ഒരു കോടി രൂപ',
    'തൊണ്ണൂറ്റിയൊൻപത് കോടി തൊണ്ണൂറ്റിയൊൻപത് ലക്ഷത്തി തൊണ്ണൂറ്റിയൊൻപതായിരത്തി തൊള്ളായിരത്തി തൊണ്ണൂറ്റിയൊൻപത് രൂപ തൊണ്ണൂറ്റിയൊൻപത് പൈസ',
  ],
  ta: [
    'பூஜ்ஜியம் ரூபாய்',
    'ஒரு ரூபாய்',
    'பதினொரு ரூபாய்',
    'பத்தொன்பது ரூபாய்',
    'இருபத்து ஒரு ரூபாய்',
    'தொண்ணூற்று ஒன்பது ரூபாய்',
    'நூறு ரூபாய்',
    'நூற்று ஒரு ரூபாய்',
    'ஆயிரம் ரூபாய்',
    'ஒரு லட்சம் ரூபாய்',
    'பன்னிரண்டு லட்சத்து ஐம்பதாயிரம் ரூபாய் ஐம்பது பைசா',
    'ஒரு கோடி ரூபாய்',
    'தொண்ணூற்று ஒன்பது கோடி தொண்ணூற்று ஒன்பது லட்சத்து தொண்ணூற்று ஒன்பதாயிரத்து தொள்ளாயிரத்து தொண்ணூற்று ஒன்பது ரூபாய் தொண்ணூற்று ஒன்பது பைசா',
  ],
  te: [
    'సున్నా రూపాయలు',
    'ఒక రూపాయి',
    'పదకొండు రూపాయలు',
    'పంతొమ్మిది రూపాయలు',
    'ఇరవై ఒక రూపాయలు',
    'తొంభై తొమ్మిది రూపాయలు',
    'వంద రూపాయలు',
    'నూట ఒక రూపాయలు',
    'వెయ్యి రూపాయలు',
    'ఒక లక్ష రూపాయలు',
    'పన్నెండు లక్షల యాభై వేల రూపాయలు మరియు యాభై పైసలు',
    'ఒక కోటి రూపాయలు',
    'తొంభై తొమ్మిది కోట్ల తొంభై తొమ్మిది లక్షల తొంభై తొమ్మిది వేల తొమ్మిది వందల తొంభై తొమ్మిది రూపాయలు మరియు తొంభై తొమ్మిది పైసలు',
  ],
};

describe('amountInWords in the notice’s language ({{field | words}} in a variant)', () => {
  for (const [language, said] of Object.entries(expected)) {
    it(`says amounts in ${language}, in the Indian system`, () => {
      expect(amounts.map((amount) => amountInWords(amount, language))).toEqual(said);
    });
  }

  it('covers at least the ten languages of India’s notices', () => {
    expect(Object.keys(amountLanguages).sort()).toEqual(
      ['bn', 'gu', 'hi', 'kn', 'ml', 'mr', 'or', 'pa', 'ta', 'te'].sort(),
    );
  });

  it('has a word for each of 0–99 in each language, all different, none in Latin letters', () => {
    for (const [language, words] of Object.entries(amountLanguages)) {
      expect(words.below100, language).toHaveLength(100);
      expect(new Set(words.below100).size, language).toBe(100);
      for (const word of words.below100)
        expect(word, language).toMatch(/^[^\sA-Za-z0-9]+(?: [^\sA-Za-z0-9]+)*$/);
    }
  });

  it('keeps English for English, for no language and for a language without words here', () => {
    const english = 'One Lakh Twenty-Five Thousand Rupees and Fifty Paise';
    for (const language of [
      'en',
      null,
      undefined,
      '',
      'ur',
      'kok',
      'HI',
      'hindi',
      '__proto__',
      'constructor',
    ])
      expect(amountInWords('1,25,000.50', language)).toBe(english);
  });

  it('says a negative amount, paise alone and crores of crores in the language', () => {
    expect(amountInWords('-500', 'hi')).toBe('ऋण पाँच सौ रुपये');
    expect(amountInWords('(1)', 'mr')).toBe('उणे एक रुपया');
    expect(amountInWords('0.50', 'ta')).toBe('ஐம்பது பைசா');
    expect(amountInWords('₹ 1'.padEnd(17, '0'), 'hi')).toBe('एक करोड़ करोड़ रुपये');
    expect(amountInWords('1,00,00,00,000', 'te')).toBe('వంద కోట్ల రూపాయలు');
    expect(amountInWords('2,00,001', 'ml')).toBe('രണ്ട് ലക്ഷത്തിയൊന്ന് രൂപ');
    expect(amountInWords('25,000', 'ta')).toBe('இருபத்து ஐந்தாயிரம் ரூபாய்');
    expect(amountInWords('11,000', 'ta')).toBe('பதினோராயிரம் ரூபாய்');
    expect(amountInWords('1001', 'kn')).toBe('ಸಾವಿರದ ಒಂದು ರೂಪಾಯಿಗಳು');
  });

  it('prints as it is text that holds no amount, in any language', () => {
    for (const language of Object.keys(amountLanguages))
      for (const text of ['', 'NIL', '1,2,3', '12.505', 'Rs. abc', '1e21', '9'.repeat(22)])
        expect(amountInWords(text, language)).toBe(text);
  });
});
