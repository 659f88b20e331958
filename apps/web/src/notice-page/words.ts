/**
 * The notice page's words in the notice's language. English is complete; a language missing here,
 * or a word missing from one, falls back to English (the page never shows a key).
 */
export type NoticePageWords = {
  pageTitle: string;
  loading: string;
  unavailable: string;
  loadFailed: string;
  tryAgain: string;
  sentBy: string;
  checkIntro: string;
  askMobile: string;
  askAccount: string;
  answerHint: string;
  continue: string;
  checking: string;
  answerFormat: string;
  wrongAnswer: string;
  /** `when` is the time in words, e.g. 'in 58 minutes (at 11:42 am)'. */
  locked: (when: string) => string;
  tooManyTries: string;
  sessionEnded: string;
  failed: string;
  customer: string;
  reference: string;
  amountDue: string;
  respondBy: string;
  notSet: string;
  noticeHeading: string;
  downloadPdf: string;
  downloadingPdf: string;
  pdfFingerprint: string;
  actionsHeading: string;
  acknowledge: string;
  acknowledged: (at: string) => string;
  dispute: string;
  disputeText: string;
  disputeTextHint: string;
  disputeFile: string;
  disputeFileHint: string;
  fileTooLarge: string;
  fileWrongType: string;
  fileEmpty: string;
  disputeEmpty: string;
  sendDispute: string;
  sending: string;
  disputed: (at: string) => string;
  settle: string;
  settleNote: string;
  settled: (at: string) => string;
  payWithUpi: string;
  scanToPay: string;
  callUs: (phone: string) => string;
  askCallBack: string;
  callBackAsked: (at: string) => string;
};

const english: NoticePageWords = {
  pageTitle: 'Your notice',
  loading: 'Loading your notice…',
  unavailable: 'This notice is no longer available',
  loadFailed: 'The notice could not be loaded. Check your connection and try again.',
  tryAgain: 'Try again',
  sentBy: 'Sent by',
  checkIntro: 'To see this notice, first confirm it is meant for you.',
  askMobile: 'Last four digits of your registered mobile number',
  askAccount: 'Last four digits of your loan or account number',
  answerHint: 'Four digits, for example 1234.',
  continue: 'Continue',
  checking: 'Checking…',
  answerFormat: 'Enter exactly four digits.',
  wrongAnswer: 'Those digits do not match our records. Check them and try again.',
  locked: (when) => `Too many wrong answers. You can try again ${when}.`,
  tooManyTries: 'Too many tries from this connection. Wait a minute and try again.',
  sessionEnded: 'For your safety this page was closed after a while. Enter the four digits again.',
  failed: 'That did not go through. Check your connection and try again.',
  customer: 'Name',
  reference: 'Reference',
  amountDue: 'Amount due',
  respondBy: 'Respond by',
  notSet: 'Not set',
  noticeHeading: 'The notice',
  downloadPdf: 'Download the notice (PDF)',
  downloadingPdf: 'Downloading…',
  pdfFingerprint: 'SHA-256 of the PDF',
  actionsHeading: 'What would you like to do?',
  acknowledge: 'I have received this notice',
  acknowledged: (at) => `Thank you. We recorded that you received this notice on ${at}.`,
  dispute: 'I dispute this',
  disputeText: 'Why do you dispute this notice?',
  disputeTextHint: 'Up to 5000 characters.',
  disputeFile: 'Attach a document (optional)',
  disputeFileHint: 'A PDF or a photo (JPEG, PNG or WebP), 10 MB at most.',
  fileTooLarge: 'This file is larger than 10 MB. Choose a smaller file.',
  fileWrongType: 'Choose a PDF or a photo (JPEG, PNG or WebP).',
  fileEmpty: 'This file is empty. Choose the file again.',
  disputeEmpty: 'Write why you dispute the notice, or attach a document.',
  sendDispute: 'Send my dispute',
  sending: 'Sending…',
  disputed: (at) => `We received your dispute on ${at}. Someone from our office will look into it.`,
  settle: 'I want to settle / pay',
  settleNote: 'We will contact you about settling.',
  settled: (at) => `We recorded on ${at} that you want to settle. We will contact you.`,
  payWithUpi: 'Pay with a UPI app',
  scanToPay: 'Scan this code with any UPI app on your phone to pay.',
  callUs: (phone) => `Call us on ${phone}`,
  askCallBack: 'Ask us to call you back',
  callBackAsked: (at) => `We recorded on ${at} that you want a call back. We will call you.`,
};

const hindi: Partial<NoticePageWords> = {
  pageTitle: 'आपका नोटिस',
  loading: 'आपका नोटिस खुल रहा है…',
  unavailable: 'यह नोटिस अब उपलब्ध नहीं है',
  loadFailed: 'नोटिस नहीं खुल सका। अपना इंटरनेट कनेक्शन जाँचें और फिर से प्रयास करें।',
  tryAgain: 'फिर से प्रयास करें',
  sentBy: 'भेजने वाले',
  checkIntro: 'यह नोटिस देखने के लिए पहले पुष्टि करें कि यह आपके लिए है।',
  askMobile: 'आपके पंजीकृत मोबाइल नंबर के अंतिम चार अंक',
  askAccount: 'आपके लोन या खाता नंबर के अंतिम चार अंक',
  answerHint: 'चार अंक, जैसे 1234।',
  continue: 'आगे बढ़ें',
  checking: 'जाँच हो रही है…',
  answerFormat: 'ठीक चार अंक लिखें।',
  wrongAnswer: 'ये अंक हमारे रिकॉर्ड से मेल नहीं खाते। जाँचकर फिर से लिखें।',
  locked: (when) => `बहुत बार गलत अंक लिखे गए। आप ${when} फिर से प्रयास कर सकते हैं।`,
  tooManyTries: 'इस कनेक्शन से बहुत बार प्रयास हुए। एक मिनट रुककर फिर से प्रयास करें।',
  sessionEnded: 'आपकी सुरक्षा के लिए यह पेज कुछ समय बाद बंद हो गया। चार अंक फिर से लिखें।',
  failed: 'यह नहीं हो सका। अपना कनेक्शन जाँचें और फिर से प्रयास करें।',
  customer: 'नाम',
  reference: 'संदर्भ',
  amountDue: 'बकाया राशि',
  respondBy: 'जवाब देने की अंतिम तिथि',
  notSet: 'तय नहीं',
  noticeHeading: 'नोटिस',
  downloadPdf: 'नोटिस डाउनलोड करें (PDF)',
  downloadingPdf: 'डाउनलोड हो रहा है…',
  pdfFingerprint: 'PDF का SHA-256',
  actionsHeading: 'आप क्या करना चाहेंगे?',
  acknowledge: 'मुझे यह नोटिस मिल गया है',
  acknowledged: (at) => `धन्यवाद। हमने दर्ज किया कि आपको यह नोटिस ${at} को मिला।`,
  dispute: 'मैं इससे असहमत हूँ',
  disputeText: 'आप इस नोटिस से असहमत क्यों हैं?',
  disputeTextHint: 'अधिकतम 5000 अक्षर।',
  disputeFile: 'कोई दस्तावेज़ जोड़ें (वैकल्पिक)',
  disputeFileHint: 'PDF या फ़ोटो (JPEG, PNG या WebP), अधिकतम 10 MB।',
  fileTooLarge: 'यह फ़ाइल 10 MB से बड़ी है। छोटी फ़ाइल चुनें।',
  fileWrongType: 'PDF या फ़ोटो (JPEG, PNG या WebP) चुनें।',
  fileEmpty: 'यह फ़ाइल खाली है। फ़ाइल फिर से चुनें।',
  disputeEmpty: 'लिखें कि आप असहमत क्यों हैं, या कोई दस्तावेज़ जोड़ें।',
  sendDispute: 'मेरी आपत्ति भेजें',
  sending: 'भेजा जा रहा है…',
  disputed: (at) => `हमें आपकी आपत्ति ${at} को मिली। हमारे कार्यालय से कोई इसे देखेगा।`,
  settle: 'मैं भुगतान / समझौता करना चाहता/चाहती हूँ',
  settleNote: 'समझौते के लिए हम आपसे संपर्क करेंगे।',
  settled: (at) => `हमने ${at} को दर्ज किया कि आप समझौता करना चाहते हैं। हम आपसे संपर्क करेंगे।`,
  payWithUpi: 'UPI ऐप से भुगतान करें',
  scanToPay: 'भुगतान के लिए अपने फ़ोन के किसी भी UPI ऐप से यह कोड स्कैन करें।',
  callUs: (phone) => `हमें ${phone} पर कॉल करें`,
  askCallBack: 'मुझे वापस कॉल करें',
  callBackAsked: (at) => `हमने ${at} को दर्ज किया कि आप कॉल चाहते हैं। हम आपको कॉल करेंगे।`,
};

const wordsByLanguage: Record<string, Partial<NoticePageWords>> = { en: english, hi: hindi };

/** The primary subtag of a BCP 47 tag ('hi-IN' → 'hi'), lower case. */
export const primaryLanguage = (language: string) => language.split('-')[0]?.toLowerCase() ?? 'en';

/** The page's words for `language`, English where that language has no word. */
export function wordsFor(language: string): NoticePageWords {
  return { ...english, ...wordsByLanguage[primaryLanguage(language)] };
}
