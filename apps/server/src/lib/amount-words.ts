/**
 * Rupee amounts in words in the languages of India's notices, in the Indian system (thousand, lakh,
 * crore; past 99 crore the crores are counted again: 'एक सौ करोड़'), for `{{field | words}}` in a
 * template variant of that language.
 *
 * The words are CLDR's spell-out rules for each language (common/rbnf/<code>.xml: the numbers 0–99, the
 * hundreds and the group words, with their joined forms: Marathi एकशे, Kannada ಸಾವಿರದ, Malayalam
 * ലക്ഷത്തി, Telugu నూట), checked against n2words' tables. Where the two differ the CLDR word is kept;
 * where CLDR's Tamil rules are not Tamil as written (இருபது ஒன்று) the tens join as a Tamil writer
 * joins them (இருபத்து ஒன்று), and Bengali 88 is the dictionary's অষ্টাশি (CLDR: অষ্টআশি). A number always goes before the currency word, so it takes the form a
 * number takes before a noun (Telugu ఒక, రెండు వందల; Tamil ஒரு).
 */

/** What a language needs to say a rupee amount; `below100[n]` is 0–99 standing alone. */
export interface AmountLanguage {
  below100: readonly string[];
  /** h hundred (1–9), before more of the number when `more`. */
  hundreds: (h: number, more: boolean) => string;
  /** A count of thousands, lakhs or crores (`words`: the count said alone), before more when `more`. */
  group: (kind: GroupKind, count: bigint, words: string, more: boolean) => string;
  /** A joined head (a group or hundreds word) and the rest of the number after it. */
  join?: (head: string, rest: number, restWords: string) => string;
  /** The whole number as it stands before the currency word. */
  beforeNoun?: (words: string) => string;
  rupee: string;
  rupees: string;
  paisa: string;
  paise: string;
  /** Joins rupees to paise; '' joins them with a space only. */
  and: string;
  minus: string;
}

export type GroupKind = 'thousand' | 'lakh' | 'crore';

/** Ten words a line, 0–9, 10–19 … 90–99. */
const table = (lines: string): string[] => {
  const words = lines.trim().split(/\s+/);
  if (words.length !== 100) throw new Error(`A number table has ${words.length} words, not 100.`);
  return words;
};

/** Words whose groups are said `<count> <word>`, whatever follows. */
const simpleGroups =
  (names: Record<GroupKind, string>) =>
  (kind: GroupKind, _count: bigint, words: string): string =>
    `${words} ${names[kind]}`;

const hindi: AmountLanguage = {
  below100: table(`
    शून्य एक दो तीन चार पाँच छह सात आठ नौ
    दस ग्यारह बारह तेरह चौदह पन्द्रह सोलह सत्रह अठारह उन्नीस
    बीस इक्कीस बाईस तेईस चौबीस पच्चीस छब्बीस सत्ताईस अट्ठाईस उनतीस
    तीस इकतीस बत्तीस तैंतीस चौंतीस पैंतीस छत्तीस सैंतीस अड़तीस उनतालीस
    चालीस इकतालीस बयालीस तैंतालीस चौवालीस पैंतालीस छियालीस सैंतालीस अड़तालीस उनचास
    पचास इक्यावन बावन तिरेपन चौवन पचपन छप्पन सत्तावन अट्ठावन उनसठ
    साठ इकसठ बासठ तिरेसठ चौंसठ पैंसठ छियासठ सड़सठ अड़सठ उनहत्तर
    सत्तर इकहत्तर बहत्तर तिहत्तर चौहत्तर पचहत्तर छिहत्तर सतहत्तर अठहत्तर उनासी
    अस्सी इक्यासी बयासी तिरासी चौरासी पचासी छियासी सत्तासी अट्ठासी नवासी
    नब्बे इक्यानबे बानबे तिरानबे चौरानबे पंचानबे छियानबे सत्तानबे अट्ठानबे निन्यानबे`),
  hundreds: (h) => `${hindi.below100[h]} सौ`,
  group: simpleGroups({ thousand: 'हजार', lakh: 'लाख', crore: 'करोड़' }),
  rupee: 'रुपया',
  rupees: 'रुपये',
  paisa: 'पैसा',
  paise: 'पैसे',
  and: 'और',
  minus: 'ऋण',
};

const marathiHundreds = ['', 'एकशे', 'दोनशे', 'तीनशे', 'चारशे', 'पाचशे', 'सहाशे', 'सातशे', 'आठशे', 'नऊशे'];
const marathi: AmountLanguage = {
  below100: table(`
    शून्य एक दोन तीन चार पाच सहा सात आठ नऊ
    दहा अकरा बारा तेरा चौदा पंधरा सोळा सतरा अठरा एकोणीस
    वीस एकवीस बावीस तेवीस चोवीस पंचवीस सव्वीस सत्तावीस अठ्ठावीस एकोणतीस
    तीस एकतीस बत्तीस तेहतीस चौतीस पस्तीस छत्तीस सदतीस अडतीस एकोणचाळीस
    चाळीस एक्केचाळीस बेचाळीस त्रेचाळीस चव्वेचाळीस पंचेचाळीस सेहेचाळीस सत्तेचाळीस अठ्ठेचाळीस एकोणपन्नास
    पन्नास एक्कावन्न बावन्न त्रेपन्न चौपन्न पंचावन्न छप्पन्न सत्तावन्न अठ्ठावन्न एकोणसाठ
    साठ एकसष्ट बासष्ट त्रेसष्ट चौसष्ट पासष्ट सहासष्ट सदुसष्ट अडुसष्ट एकोणसत्तर
    सत्तर एकाहत्तर बाहत्तर त्र्याहत्तर चौऱ्याहत्तर पंच्याहत्तर शहात्तर सत्त्याहत्तर अठ्ठ्याहत्तर एकोणऐंशी
    ऐंशी एक्क्याऐंशी ब्याऐंशी त्र्याऐंशी चौऱ्याऐंशी पंच्याऐंशी शहाऐंशी सत्त्याऐंशी अठ्ठ्याऐंशी एकोणनव्वद
    नव्वद एक्याण्णव ब्याण्णव त्र्याण्णव चौऱ्याण्णव पंच्याण्णव शहाण्णव सत्त्याण्णव अठ्ठ्याण्णव नव्व्याण्णव`),
  // शंभर standing alone; एकशे … नऊशे before more, and 200–900 alone.
  hundreds: (h, more) => (h === 1 && !more ? 'शंभर' : marathiHundreds[h]!),
  group: simpleGroups({ thousand: 'हजार', lakh: 'लाख', crore: 'कोटी' }),
  rupee: 'रुपया',
  rupees: 'रुपये',
  paisa: 'पैसा',
  paise: 'पैसे',
  and: 'आणि',
  minus: 'उणे',
};

const bengali: AmountLanguage = {
  below100: table(`
    শূন্য এক দুই তিন চার পাঁচ ছয় সাত আট নয়
    দশ এগারো বারো তেরো চৌদ্দ পনেরো ষোলো সতেরো আঠারো উনিশ
    কুড়ি একুশ বাইশ তেইশ চব্বিশ পঁচিশ ছাব্বিশ সাতাশ আঠাশ উনত্রিশ
    ত্রিশ একত্রিশ বত্রিশ তেত্রিশ চৌত্রিশ পঁয়ত্রিশ ছত্রিশ সাঁইত্রিশ আটত্রিশ উনচল্লিশ
    চল্লিশ একচল্লিশ বিয়াল্লিশ তেতাল্লিশ চুয়াল্লিশ পঁয়তাল্লিশ ছেচল্লিশ সাতচল্লিশ আটচল্লিশ উনপঞ্চাশ
    পঞ্চাশ একান্ন বায়ান্ন তিপান্ন চুয়ান্ন পঞ্চান্ন ছাপান্ন সাতান্ন আটান্ন উনষাট
    ষাট একষট্টি বাষট্টি তেষট্টি চৌষট্টি পঁয়ষট্টি ছেষট্টি সাতষট্টি আটষট্টি উনসত্তর
    সত্তর একাত্তর বাহাত্তর তিয়াত্তর চুয়াত্তর পঁচাত্তর ছিয়াত্তর সাতাত্তর আটাত্তর উনআশি
    আশি একাশি বিরাশি তিরাশি চুরাশি পঁচাশি ছিয়াশি সাতাশি অষ্টাশি উননব্বই
    নব্বই একানব্বই বিরানব্বই তিরানব্বই চুরানব্বই পঁচানব্বই ছিয়ানব্বই সাতানব্বই আটানব্বই নিরানব্বই`),
  hundreds: (h) => `${bengali.below100[h]}শো`,
  group: simpleGroups({ thousand: 'হাজার', lakh: 'লাখ', crore: 'কোটি' }),
  // Bengali calls the rupee টাকা, in India as in Bangladesh.
  rupee: 'টাকা',
  rupees: 'টাকা',
  paisa: 'পয়সা',
  paise: 'পয়সা',
  and: 'এবং',
  minus: 'ঋণ',
};

const gujarati: AmountLanguage = {
  below100: table(`
    શૂન્ય એક બે ત્રણ ચાર પાંચ છ સાત આઠ નવ
    દસ અગિયાર બાર તેર ચૌદ પંદર સોળ સત્તર અઢાર ઓગણીસ
    વીસ એકવીસ બાવીસ તેવીસ ચોવીસ પચ્ચીસ છવીસ સત્તાવીસ અઠ્ઠાવીસ ઓગણત્રીસ
    ત્રીસ એકત્રીસ બત્રીસ તેત્રીસ ચોત્રીસ પાંત્રીસ છત્રીસ સડત્રીસ અડત્રીસ ઓગણચાલીસ
    ચાલીસ એકતાલીસ બેતાલીસ ત્રેતાલીસ ચુંમાલીસ પિસ્તાલીસ છેતાલીસ સુડતાલીસ અડતાલીસ ઓગણપચાસ
    પચાસ એકાવન બાવન ત્રેપન ચોપન પંચાવન છપ્પન સત્તાવન અઠ્ઠાવન ઓગણસાઠ
    સાઈઠ એકસઠ બાસઠ ત્રેસઠ ચોસઠ પાંસઠ છાસઠ સડસઠ અડસઠ અગણોસિત્તેર
    સિત્તેર એકોતેર બોતેર તોતેર ચુમોતેર પંચોતેર છોતેર સિત્યોતેર ઇઠ્યોતેર ઓગણાએંસી
    એંસી એક્યાસી બ્યાસી ત્યાસી ચોર્યાસી પંચાસી છ્યાસી સિત્યાસી ઈઠ્યાસી નેવ્યાસી
    નેવું એકાણું બાણું ત્રાણું ચોરાણું પંચાણું છન્નું સત્તાણું અઠ્ઠાણું નવ્વાણું`),
  hundreds: (h) => `${gujarati.below100[h]} સો`,
  group: simpleGroups({ thousand: 'હજાર', lakh: 'લાખ', crore: 'કરોડ' }),
  rupee: 'રૂપિયો',
  rupees: 'રૂપિયા',
  paisa: 'પૈસો',
  paise: 'પૈસા',
  and: 'અને',
  minus: 'ઋણ',
};

const punjabi: AmountLanguage = {
  below100: table(`
    ਸਿਫ਼ਰ ਇੱਕ ਦੋ ਤਿੰਨ ਚਾਰ ਪੰਜ ਛੇ ਸੱਤ ਅੱਠ ਨੌਂ
    ਦਸ ਗਿਆਰਾਂ ਬਾਰਾਂ ਤੇਰਾਂ ਚੌਦਾਂ ਪੰਦਰਾਂ ਸੋਲਾਂ ਸਤਾਰਾਂ ਅਠਾਰਾਂ ਉੱਨੀ
    ਵੀਹ ਇੱਕੀ ਬਾਈ ਤੇਈ ਚੌਵੀ ਪੱਚੀ ਛੱਬੀ ਸਤਾਈ ਅਠਾਈ ਉਣੱਤੀ
    ਤੀਹ ਇਕੱਤੀ ਬੱਤੀ ਤੇਤੀ ਚੌਂਤੀ ਪੈਂਤੀ ਛੱਤੀ ਸੈਂਤੀ ਅਠੱਤੀ ਉਣਤਾਲੀ
    ਚਾਲੀ ਇਕਤਾਲੀ ਬਿਆਲੀ ਤਰਤਾਲੀ ਚੁਤਾਲੀ ਪੰਤਾਲੀ ਛਿਆਲੀ ਸੰਤਾਲੀ ਅਠਤਾਲੀ ਉਣੰਜਾ
    ਪੰਜਾਹ ਇਕਵੰਜਾ ਬਵੰਜਾ ਤਿਰਵੰਜਾ ਚੁਰੰਜਾ ਪਚਵੰਜਾ ਛਪੰਜਾ ਸਤਵੰਜਾ ਅਠਵੰਜਾ ਉਣਾਹਠ
    ਸੱਠ ਇਕਾਹਠ ਬਾਹਠ ਤਰੇਹਠ ਚੌਹਠ ਪੈਂਹਠ ਛਿਆਹਠ ਸਤਾਹਠ ਅਠਾਹਠ ਉਣ੍ਹੱਤਰ
    ਸੱਤਰ ਇਕ੍ਹੱਤਰ ਬਹੱਤਰ ਤਿਹੱਤਰ ਚੁਹੱਤਰ ਪੰਝੱਤਰ ਛਿਹੱਤਰ ਸਤੱਤਰ੍ਹ ਅਠੱਤਰ ਉਣਾਸੀ
    ਅੱਸੀ ਇਕਾਸੀ ਬਿਆਸੀ ਤਿਰਾਸੀ ਚੁਰਾਸੀ ਪਚਾਸੀ ਛਿਆਸੀ ਸਤਾਸੀ ਅਠਾਸੀ ਉਣਾਨ੍ਹਵੇ
    ਨੱਬੇ ਇਕਾਨਵੇ ਬਾਨਵੇ ਤਰਾਨਵੇ ਚੁਰਾਨਵੇ ਪੰਚਾਨਵੇ ਛਿਆਨਵੇ ਸਤਾਨਵੇ ਅਠਾਨਵੇ ਨੜ੍ਹਿੰਨਵੇ`),
  hundreds: (h) => `${punjabi.below100[h]} ਸੌ`,
  group: simpleGroups({ thousand: 'ਹਜ਼ਾਰ', lakh: 'ਲੱਖ', crore: 'ਕਰੋੜ' }),
  rupee: 'ਰੁਪਇਆ',
  rupees: 'ਰੁਪਏ',
  paisa: 'ਪੈਸਾ',
  paise: 'ਪੈਸੇ',
  and: 'ਅਤੇ',
  minus: 'ਰਿਣ',
};

const odia: AmountLanguage = {
  below100: table(`
    ଶୂନ୍ୟ ଏକ ଦୁଇ ତିନି ଚାରି ପାଞ୍ଚ ଛଅ ସାତ ଆଠ ନଅ
    ଦଶ ଏଗାର ବାର ତେର ଚଉଦ ପନ୍ଦର ଷୋଳ ସତର ଅଠର ଊଣେଇଶ
    କୋଡ଼ିଏ ଏକୋଇଶ ବାଇଶ ତେଇଶ ଚଉବିଶ ପଚିଶ ଛବିଶ ସତାଇଶ ଅଠାଇଶ ଊଣାତିରିଶ
    ତିରିଶ ଏକତିରିଶ ବତିଶ ତେତିଶ ଚଉତିରିଶ ପଞ୍ଚତିରିଶ ଛତିଶ ସତତିରିଶ ଅଠତିରିଶ ଊଣଚାଳିଶ
    ଚାଳିଶ ଏକଚାଳିଶ ବୟାଳିଶ ତେତାଳିଶ ଚଉରାଳିଶ ପଞ୍ଚଚାଳିଶ ଛେଚାଳିଶ ସତଚାଳିଶ ଅଠଚାଳିଶ ଊଣପଚାଶ
    ପଚାଶ ଏକାବନ ବାବନ ତେପନ ଚଉବନ ପଞ୍ଚାବନ ଛପନ ସତାବନ ଅଠାବନ ଊଣଷାଠିଏ
    ଷାଠିଏ ଏକଷଠି ବାଷଠି ତେଷଠି ଚଉଷଠି ପଞ୍ଚଷଠି ଛଅଷଠି ସତଷଠି ଅଠଷଠି ଊଣସତୁରୀ
    ସତୁରୀ ଏକସତୁରୀ ବାସତୁରୀ ତେସତୁରୀ ଚଉସତୁରୀ ପଞ୍ଚସତୁରୀ ଛଅସତୁରୀ ସତସତୁରୀ ଅଠସତୁରୀ ଊଣାଶୀ
    ଅଶୀ ଏକାଶୀ ବୟାଶୀ ତେରାଶୀ ଚଉରାଶୀ ପଞ୍ଚାଶୀ ଛିଆଶୀ ସତାଶୀ ଅଠାଶୀ ଊଣାନବେ
    ନବେ ଏକାନବେ ବୟାନବେ ତେରାନବେ ଚଉରାନବେ ପଞ୍ଚାନବେ ଛିଆନବେ ସତାନବେ ଅଠାନବେ ନିଆଁନବେ`),
  hundreds: (h) => (h === 1 ? 'ଶହେ' : `${odia.below100[h]} ଶହ`),
  group: simpleGroups({ thousand: 'ହଜାର', lakh: 'ଲକ୍ଷ', crore: 'କୋଟି' }),
  rupee: 'ଟଙ୍କା',
  rupees: 'ଟଙ୍କା',
  paisa: 'ପଇସା',
  paise: 'ପଇସା',
  and: 'ଓ',
  minus: 'ଋଣ',
};

/** Kannada 20–90 before a unit, and the units as they join them (ಇಪ್ಪತ್ತ + ೊಂದು). */
const kannadaTensStems = ['', '', 'ಇಪ್ಪತ್ತ', 'ಮೂವತ್ತ', 'ನಲವತ್ತ', 'ಐವತ್ತ', 'ಅರವತ್ತ', 'ಎಪ್ಪತ್ತ', 'ಎಂಬತ್ತ', 'ತೊಂಬತ್ತ'];
const kannadaUnitSuffixes = ['ು', 'ೊಂದು', 'ೆರಡು', 'ಮೂರು', 'ನಾಲ್ಕು', 'ೈದು', 'ಾರು', 'ೇಳು', 'ೆಂಟು', 'ೊಂಬತ್ತು'];
const kannadaHundreds = [
  '',
  'ನೂರ',
  'ಇನ್ನೂರ',
  'ಮುನ್ನೂರ',
  'ನಾನೂರ',
  'ಐನೂರ',
  'ಆರುನೂರ',
  'ಏಳುನೂರ',
  'ಎಂಟುನೂರ',
  'ಒಂಬೈನೂರ',
];
const kannada: AmountLanguage = {
  below100: [
    ...'ಸೊನ್ನೆ ಒಂದು ಎರಡು ಮೂರು ನಾಲ್ಕು ಐದು ಆರು ಏಳು ಎಂಟು ಒಂಬತ್ತು'.split(' '),
    ...'ಹತ್ತು ಹನ್ನೊಂದು ಹನ್ನೆರಡು ಹದಿಮೂರು ಹದಿನಾಲ್ಕು ಹದಿನೈದು ಹದಿನಾರು ಹದಿನೇಳು ಹದಿನೆಂಟು ಹತ್ತೊಂಬತ್ತು'.split(' '),
    ...Array.from(
      { length: 80 },
      (_, i) => kannadaTensStems[2 + Math.floor(i / 10)]! + kannadaUnitSuffixes[i % 10],
    ),
  ],
  // ನೂರು alone, ನೂರ before more (ನೂರ ಒಂದು).
  hundreds: (h, more) => kannadaHundreds[h]! + (more ? '' : 'ು'),
  // ಸಾವಿರ (one thousand needs no ಒಂದು), ಎರಡು ಸಾವಿರ; before more ಸಾವಿರದ, ಲಕ್ಷದ, ಕೋಟಿಯ.
  group: (kind, count, words, more) => {
    if (kind === 'thousand') return `${count === 1n ? '' : `${words} `}ಸಾವಿರ${more ? 'ದ' : ''}`;
    if (kind === 'lakh') return `${words} ಲಕ್ಷ${more ? 'ದ' : ''}`;
    return `${words} ಕೋಟಿ${more ? 'ಯ' : ''}`;
  },
  rupee: 'ರೂಪಾಯಿ',
  rupees: 'ರೂಪಾಯಿಗಳು',
  paisa: 'ಪೈಸೆ',
  paise: 'ಪೈಸೆ',
  and: 'ಮತ್ತು',
  minus: 'ಋಣ',
};

/** Malayalam: the units as they join a tens or hundreds word (ഇരുപത്തി + യൊന്ന്). */
const malayalamJoinedUnits = ['', 'യൊന്ന്', 'രണ്ട്', 'മൂന്ന്', 'നാല്', 'യഞ്ച്', 'യാറ്', 'യേഴ്', 'യെട്ട്', 'യൊൻപത്'];
const malayalamTensStems = ['', '', 'ഇരുപത', 'മുപ്പത', 'നാൽപ്പത', 'അൻപത', 'അറുപത', 'എഴുപത', 'എൺപത', 'തൊണ്ണൂറ'];
/** 1–99 as they stand before ആയിരം (രണ്ടായിരം, പതിനായിരം), CLDR's spellout-prefix. */
const malayalamPrefix = (n: number): string => {
  const below20 =
    'ഒന്ന രണ്ട മൂന്ന നാല അഞ്ച ആറ ഏഴ എട്ട ഒൻപതിന പതിന പതിനൊന്ന പന്ത്രണ്ട പതിമൂന്ന പതിനാല പതിനഞ്ച പതിനാറ പതിനേഴ പതിനെട്ട പത്തൊൻപത';
  if (n < 20) return below20.split(' ')[n - 1]!;
  const stem = malayalamTensStems[Math.floor(n / 10)]!;
  if (n % 10 === 0) return stem;
  return `${stem}${n >= 90 ? '്റി' : '്തി'}${malayalamJoinedUnits[n % 10]!.slice(0, -1)}`;
};
const malayalamHundreds = ['', 'നൂറ', 'ഇരുനൂറ', 'മുന്നൂറ', 'നാന്നൂറ', 'അഞ്ഞൂറ', 'അറുന്നൂറ', 'എഴുന്നൂറ', 'എണ്ണൂറ'];
const malayalam: AmountLanguage = {
  below100: [
    ...'പൂജ്യം ഒരു രണ്ട് മൂന്ന് നാല് അഞ്ച് ആറ് ഏഴ് എട്ട് ഒൻപത്'.split(' '),
    ...'പത്ത് പതിനൊന്ന് പന്ത്രണ്ട് പതിമൂന്ന് പതിനാല് പതിനഞ്ച് പതിനാറ് പതിനേഴ് പതിനെട്ട് പത്തൊൻപത്'.split(' '),
    ...Array.from({ length: 80 }, (_, i) => {
      const stem = malayalamTensStems[2 + Math.floor(i / 10)]!;
      if (i % 10 === 0) return `${stem}്`;
      return `${stem}${i >= 70 ? '്റി' : '്തി'}${malayalamJoinedUnits[i % 10]}`;
    }),
  ],
  // നൂറ് alone, നൂറ്റി before more; 900 is തൊള്ളായിരം, തൊള്ളായിരത്തി.
  hundreds: (h, more) =>
    h === 9 ? (more ? 'തൊള്ളായിരത്തി' : 'തൊള്ളായിരം') : malayalamHundreds[h]! + (more ? '്റി' : '്'),
  group: (kind, count, words, more) => {
    if (kind === 'thousand')
      return `${count === 1n ? 'ആയിര' : `${malayalamPrefix(Number(count))}ായിര`}${more ? 'ത്തി' : 'ം'}`;
    if (kind === 'lakh') return `${words} ലക്ഷ${more ? 'ത്തി' : 'ം'}`;
    return `${words} കോടി`;
  },
  // A unit joins the word before it (നൂറ്റിയൊന്ന്, ആയിരത്തിരണ്ട്); more than a unit follows a space.
  join: (head, rest, restWords) => (rest < 10 ? head + malayalamJoinedUnits[rest] : `${head} ${restWords}`),
  rupee: 'രൂപ',
  rupees: 'രൂപ',
  paisa: 'പൈസ',
  paise: 'പൈസ',
  and: '',
  minus: 'മൈനസ്',
};

/** Tamil: 20–90 as they join what follows (இருபத்து ஒன்று, தொண்ணூற்று ஒன்பது). */
const tamilTens = ['', '', 'இருபது', 'முப்பது', 'நாற்பது', 'ஐம்பது', 'அறுபது', 'எழுபது', 'எண்பது', 'தொண்ணூறு'];
const tamilTensJoined = [
  '',
  '',
  'இருபத்து',
  'முப்பத்து',
  'நாற்பத்து',
  'ஐம்பத்து',
  'அறுபத்து',
  'எழுபத்து',
  'எண்பத்து',
  'தொண்ணூற்று',
];
const tamilUnits = 'பூஜ்ஜியம் ஒன்று இரண்டு மூன்று நான்கு ஐந்து ஆறு ஏழு எட்டு ஒன்பது'.split(' ');
const tamilHundreds = ['', 'நூறு', 'இருநூறு', 'முந்நூறு', 'நானூறு', 'ஐநூறு', 'அறுநூறு', 'எழுநூறு', 'எண்ணூறு'];
/** A Tamil number before a noun: ஒன்று is ஒரு (ஒரு லட்சம், இருபத்து ஒரு ரூபாய்). */
const tamilBeforeNoun = (words: string) => words.replace(/ஒன்று$/, 'ஒரு').replace(/ொன்று$/, 'ொரு');
const tamil: AmountLanguage = {
  below100: [
    ...tamilUnits,
    ...'பத்து பதினொன்று பன்னிரண்டு பதின்மூன்று பதினான்கு பதினைந்து பதினாறு பதினேழு பதினெட்டு பத்தொன்பது'.split(' '),
    ...Array.from({ length: 80 }, (_, i) => {
      const tens = 2 + Math.floor(i / 10);
      return i % 10 === 0 ? tamilTens[tens]! : `${tamilTensJoined[tens]} ${tamilUnits[i % 10]}`;
    }),
  ],
  // நூறு alone, நூற்று before more; 900 is தொள்ளாயிரம், தொள்ளாயிரத்து.
  hundreds: (h, more) =>
    h === 9
      ? more
        ? 'தொள்ளாயிரத்து'
        : 'தொள்ளாயிரம்'
      : more
        ? tamilHundreds[h]!.replace(/று$/, 'ற்று')
        : tamilHundreds[h]!,
  group: (kind, count, words, more) => {
    if (kind === 'thousand') {
      // ஆயிரம்; a count joins it (இரண்டாயிரம், பதினோராயிரம், இருபத்து ஓராயிரம்); ஆயிரத்து before more.
      const joined =
        count === 1n
          ? 'ஆயிரம்'
          : /ஒன்று$/.test(words)
            ? words.replace(/ஒன்று$/, 'ஓராயிரம்')
            : /ொன்று$/.test(words)
              ? words.replace(/ொன்று$/, 'ோராயிரம்')
              : words.replace(/ு$/, '') + 'ாயிரம்';
      return more ? joined.replace(/ம்$/, 'த்து') : joined;
    }
    const counted = tamilBeforeNoun(words);
    if (kind === 'lakh') return `${counted} லட்ச${more ? 'த்து' : 'ம்'}`;
    return `${counted} கோடி`;
  },
  beforeNoun: tamilBeforeNoun,
  rupee: 'ரூபாய்',
  rupees: 'ரூபாய்',
  paisa: 'பைசா',
  paise: 'பைசா',
  and: '',
  minus: 'மைனஸ்',
};

/** A Telugu number before a noun: ఒకటి is ఒక (ఒక రూపాయి, ఇరవై ఒక వేల). */
const teluguBeforeNoun = (words: string) => words.replace(/ఒకటి$/, 'ఒక');
const telugu: AmountLanguage = {
  below100: [
    ...'సున్నా ఒకటి రెండు మూడు నాలుగు ఐదు ఆరు ఏడు ఎనిమిది తొమ్మిది'.split(' '),
    ...'పది పదకొండు పన్నెండు పదమూడు పద్నాలుగు పదిహేను పదహారు పదిహేడు పద్దెనిమిది పంతొమ్మిది'.split(' '),
    ...Array.from({ length: 80 }, (_, i) => {
      const tens = 'ఇరవై ముప్పై నలభై యాభై అరవై డెబ్బై ఎనభై తొంభై'.split(' ')[Math.floor(i / 10)]!;
      const units = 'సున్నా ఒకటి రెండు మూడు నాలుగు ఐదు ఆరు ఏడు ఎనిమిది తొమ్మిది'.split(' ');
      return i % 10 === 0 ? tens : `${tens} ${units[i % 10]}`;
    }),
  ],
  // వంద alone, నూట before more; రెండు వందల … (a number before a noun: రెండు వందల రూపాయలు).
  hundreds: (h, more) => (h === 1 ? (more ? 'నూట' : 'వంద') : `${telugu.below100[h]} వందల`),
  group: (kind, count, words) => {
    const counted = teluguBeforeNoun(words);
    if (kind === 'thousand') return count === 1n ? 'వెయ్యి' : `${counted} వేల`;
    if (kind === 'lakh') return count === 1n ? 'ఒక లక్ష' : `${counted} లక్షల`;
    return count === 1n ? 'ఒక కోటి' : `${counted} కోట్ల`;
  },
  beforeNoun: teluguBeforeNoun,
  rupee: 'రూపాయి',
  rupees: 'రూపాయలు',
  paisa: 'పైసా',
  paise: 'పైసలు',
  and: 'మరియు',
  minus: 'ఋణ',
};

/** The languages whose notices say amounts in their own words, by language code (contract's languages). */
export const amountLanguages: Readonly<Record<string, AmountLanguage>> = {
  hi: hindi,
  mr: marathi,
  bn: bengali,
  gu: gujarati,
  pa: punjabi,
  or: odia,
  kn: kannada,
  ml: malayalam,
  ta: tamil,
  te: telugu,
};

const defaultJoin = (head: string, _rest: number, restWords: string) => `${head} ${restWords}`;

/** 1 to 99,99,999 in the language's words. */
function belowCrore(language: AmountLanguage, n: number): string {
  const join = language.join ?? defaultJoin;
  const step = (head: string, rest: number) => (rest ? join(head, rest, belowCrore(language, rest)) : head);
  if (n >= 100_000) {
    const count = Math.floor(n / 100_000);
    const rest = n % 100_000;
    return step(language.group('lakh', BigInt(count), language.below100[count]!, rest > 0), rest);
  }
  if (n >= 1000) {
    const count = Math.floor(n / 1000);
    const rest = n % 1000;
    return step(language.group('thousand', BigInt(count), language.below100[count]!, rest > 0), rest);
  }
  if (n >= 100) {
    const rest = n % 100;
    return step(language.hundreds(Math.floor(n / 100), rest > 0), rest);
  }
  return language.below100[n]!;
}

/** Whole rupees (digits, no leading zeros, not '0'): past seven digits the crores are counted again. */
function wholeInWords(language: AmountLanguage, digits: string): string {
  if (digits.length <= 7) return belowCrore(language, Number(digits));
  const crores = digits.slice(0, -7).replace(/^0+/, '');
  const rest = Number(digits.slice(-7));
  const head = language.group('crore', BigInt(crores), wholeInWords(language, crores), rest > 0);
  return rest ? (language.join ?? defaultJoin)(head, rest, belowCrore(language, rest)) : head;
}

/**
 * Rupees and paise in a language's words ('एक लाख पच्चीस हजार रुपये और पचास पैसे'): rupees (digits, no
 * leading zeros) and paise (two digits), as parseAmount reads them. Zero is '<zero> <rupees>'.
 */
export function rupeesInWords(
  language: AmountLanguage,
  amount: { negative: boolean; rupees: string; paise: string },
): string {
  const { rupees, paise } = amount;
  const noun = (words: string) => (language.beforeNoun ?? ((w: string) => w))(words);
  const parts: string[] = [];
  if (rupees !== '0')
    parts.push(
      `${noun(wholeInWords(language, rupees))} ${rupees === '1' ? language.rupee : language.rupees}`,
    );
  if (paise !== '00')
    parts.push(
      `${noun(language.below100[Number(paise)]!)} ${paise === '01' ? language.paisa : language.paise}`,
    );
  const said =
    parts.join(language.and ? ` ${language.and} ` : ' ') || `${language.below100[0]} ${language.rupees}`;
  return amount.negative ? `${language.minus} ${said}` : said;
}
