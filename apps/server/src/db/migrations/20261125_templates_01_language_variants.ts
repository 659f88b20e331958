import type { Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
//
// Templates get language variants: a variant names the default template it belongs to (variant_of) and
// its language code; a default has neither and prints for every other language. Records get a language
// column, which picks the variant. Hindi and Tamil variants of the notice and credit-card PDF templates
// are seeded, written as an advocate in India writes a legal notice in each language.

const style = `<style>
  @page { size: A4; margin: 18mm 16mm; }
  body { font-family: 'DejaVu Serif', 'Times New Roman', serif; font-size: 11.5pt; line-height: 1.6; color: #111; }
  h1 { font-size: 15pt; text-align: center; margin: 0 0 3mm; letter-spacing: 0.5px; }
  h2 { font-size: 12pt; text-align: center; margin: 0 0 6mm; font-weight: normal; }
  .ref { display: flex; justify-content: space-between; margin-bottom: 5mm; }
  table.amounts { border-collapse: collapse; margin: 3mm 0 5mm; }
  table.amounts td { border: 1px solid #444; padding: 1.5mm 3mm; }
  ol { padding-left: 6mm; }
  ol li { margin-bottom: 2mm; }
  .sign { margin-top: 12mm; }
</style>`;

const hindiNotice = `${style}
<div lang="hi">
<h1>विधिक सूचना</h1>
<h2>माध्यस्थम् और सुलह अधिनियम, 1996 की धारा 62 के अंतर्गत सुलह हेतु आमंत्रण</h2>
<div class="ref"><span>संदर्भ सं.: {{uniqueId}} / प्रकरण आईडी {{legalCaseId}}</span><span>दिनांक: {{noticeSentOn}}</span></div>
<p>सेवा में,<br><strong>{{custName}}</strong><br>{{address}}<br>{{address3}}, {{address4}}<br>{{city}}, {{state}} - {{zipCode}}<br>मोबाइल: {{custMobileNo}}</p>
<p><strong>विषय: ऋण खाता संख्या {{loanNo}} ({{product}}) &mdash; बकाया राशि के निपटान हेतु सुलह का आमंत्रण।</strong></p>
<p>महोदय / महोदया,</p>
<p>हम अपने मुवक्किल, ऋणदाता, की ओर से तथा उनके निर्देशानुसार आपको निम्नलिखित विधिक सूचना देते हैं:</p>
<ol>
<li>यह कि आपने हमारे मुवक्किल की {{branchAddress}} स्थित शाखा से ऋण अनुबंध के अंतर्गत दिनांक {{disbursalDate}} को {{amtfin | inr}} का ऋण प्राप्त किया, जिसे {{emiAmt | inr}} की {{tenure}} मासिक किस्तों में चुकाने का आपने वचन दिया था। उक्त ऋण से वित्तपोषित वाहन {{modelNo}} है, जिसकी पंजीकरण संख्या {{regdNo}}, चेसिस संख्या {{chassisNo}} तथा इंजन संख्या {{engineNo}} है।</li>
<li>यह कि बार-बार स्मरण कराए जाने के बावजूद आपने ऋण अनुबंध की शर्तों के अनुसार किस्तों का भुगतान नहीं किया, और आपका खाता {{npaStage}} श्रेणी में वर्गीकृत किया गया है। इस सूचना की तिथि तक आप पर कुल <strong>{{totalOverdueAmt | inr}}</strong> (शब्दों में: {{totalOverdueAmt | words}}) की राशि बकाया है।</li>
<li>यह कि हमारे मुवक्किल इस विवाद का सौहार्दपूर्ण समाधान चाहते हैं। अतः माध्यस्थम् और सुलह अधिनियम, 1996 की धारा 62 के अंतर्गत आपको दिनांक <strong>{{conciliationDate}}</strong> को {{bankAddress}} पर सुलहकर्ता <strong>{{concilator}}</strong> के समक्ष सुलह बैठक में उपस्थित होने हेतु आमंत्रित किया जाता है। कृपया अपना पहचान-पत्र तथा किए गए भुगतानों की रसीदें साथ लाएँ।</li>
<li>यह कि आपसे माँग की जाती है कि इस सूचना की प्राप्ति के पंद्रह (15) दिनों के भीतर उक्त बकाया राशि का भुगतान करें, अथवा उक्त सुलह बैठक में उपस्थित होकर उसका निपटान करें।</li>
<li>यह कि यदि आप इस आमंत्रण को लिखित रूप में स्वीकार नहीं करते अथवा बैठक में उपस्थित नहीं होते, तो इसे उक्त अधिनियम की धारा 62(4) के अंतर्गत आमंत्रण की अस्वीकृति माना जाएगा, और हमारे मुवक्किल बिना किसी अतिरिक्त सूचना के आपके विरुद्ध विधि के अंतर्गत उपलब्ध समस्त सिविल एवं आपराधिक कार्यवाही करने के लिए स्वतंत्र होंगे, जिसके समस्त व्यय एवं परिणामों के लिए आप स्वयं उत्तरदायी होंगे।</li>
</ol>
<p>इस सूचना की एक प्रति अभिलेख तथा आगामी कार्यवाही हेतु हमारे कार्यालय में सुरक्षित रखी गई है।</p>
<p class="sign">भवदीय,<br><br>(हस्ताक्षर)<br>{{legalManager}}<br>अधिवक्ता / विधि प्रबंधक<br>ऋणदाता की ओर से एवं उनके लिए</p>
</div>`;

const tamilNotice = `${style}
<div lang="ta">
<h1>சட்ட அறிவிப்பு</h1>
<h2>நடுவர் மற்றும் சமரசச் சட்டம், 1996, பிரிவு 62-இன் கீழ் சமரசத்திற்கான அழைப்பு</h2>
<div class="ref"><span>குறிப்பு எண்: {{uniqueId}} / வழக்கு அடையாள எண் {{legalCaseId}}</span><span>தேதி: {{noticeSentOn}}</span></div>
<p>பெறுநர்,<br><strong>{{custName}}</strong><br>{{address}}<br>{{address3}}, {{address4}}<br>{{city}}, {{state}} - {{zipCode}}<br>கைபேசி: {{custMobileNo}}</p>
<p><strong>பொருள்: கடன் கணக்கு எண் {{loanNo}} ({{product}}) &mdash; நிலுவைத் தொகையைச் சமரசம் மூலம் தீர்வு செய்வதற்கான அழைப்பு.</strong></p>
<p>ஐயா / அம்மையீர்,</p>
<p>எங்கள் கட்சிக்காரரான கடன் வழங்குநரின் சார்பிலும், அவரது அறிவுறுத்தலின் பேரிலும், பின்வரும் சட்ட அறிவிப்பை உங்களுக்கு அனுப்புகிறோம்:</p>
<ol>
<li>எங்கள் கட்சிக்காரரின் {{branchAddress}} கிளையிலிருந்து, கடன் ஒப்பந்தத்தின்படி, {{disbursalDate}} அன்று {{amtfin | inr}} கடனாகப் பெற்றீர்கள்; அத்தொகையை மாதம் {{emiAmt | inr}} வீதம் {{tenure}} மாதத் தவணைகளில் திருப்பிச் செலுத்துவதாக ஒப்புக்கொண்டீர்கள். அக்கடனில் வாங்கப்பட்ட வாகனம் {{modelNo}}; அதன் பதிவு எண் {{regdNo}}, சேசிஸ் எண் {{chassisNo}}, இன்ஜின் எண் {{engineNo}}.</li>
<li>பலமுறை நினைவூட்டியும், கடன் ஒப்பந்தத்தின் நிபந்தனைகளின்படி நீங்கள் தவணைகளைச் செலுத்தத் தவறியதால், உங்கள் கணக்கு {{npaStage}} நிலையில் வகைப்படுத்தப்பட்டுள்ளது. இந்த அறிவிப்புத் தேதியின்படி நீங்கள் செலுத்த வேண்டிய மொத்த நிலுவைத் தொகை <strong>{{totalOverdueAmt | inr}}</strong> (எழுத்தில்: {{totalOverdueAmt | words}}) ஆகும்.</li>
<li>இப்பிரச்சினையை இணக்கமாகத் தீர்க்க எங்கள் கட்சிக்காரர் விரும்புகிறார். ஆகவே, நடுவர் மற்றும் சமரசச் சட்டம், 1996, பிரிவு 62-இன் கீழ், <strong>{{conciliationDate}}</strong> அன்று {{bankAddress}} இல் சமரசர் <strong>{{concilator}}</strong> முன்னிலையில் நடைபெறும் சமரசக் கூட்டத்தில் கலந்துகொள்ள உங்களை அழைக்கிறோம். உங்கள் அடையாளச் சான்றையும், செலுத்திய தொகைகளுக்கான ரசீதுகளையும் உடன் கொண்டு வரவும்.</li>
<li>இந்த அறிவிப்பு கிடைத்த பதினைந்து (15) நாட்களுக்குள் மேற்கண்ட நிலுவைத் தொகையைச் செலுத்துமாறு, அல்லது மேற்கண்ட சமரசக் கூட்டத்தில் கலந்துகொண்டு தீர்வு காணுமாறு, இதன் மூலம் உங்களைக் கோருகிறோம்.</li>
<li>இந்த அழைப்பை நீங்கள் எழுத்து மூலம் ஏற்காவிட்டாலோ, கூட்டத்தில் கலந்துகொள்ளாவிட்டாலோ, அது மேற்படி சட்டத்தின் பிரிவு 62(4)-இன் கீழ் அழைப்பை நிராகரித்ததாகக் கருதப்படும். அதன்பின் மேலும் எந்த அறிவிப்புமின்றி, சட்டப்படி கிடைக்கும் அனைத்து உரிமையியல் மற்றும் குற்றவியல் நடவடிக்கைகளையும் உங்கள் மீது எடுக்க எங்கள் கட்சிக்காரருக்கு முழு உரிமை உண்டு; அதற்கான செலவுகள் மற்றும் விளைவுகள் அனைத்திற்கும் நீங்களே பொறுப்பாவீர்கள்.</li>
</ol>
<p>இந்த அறிவிப்பின் நகல் ஒன்று பதிவுக்காகவும் மேல் நடவடிக்கைக்காகவும் எங்கள் அலுவலகத்தில் வைக்கப்பட்டுள்ளது.</p>
<p class="sign">இப்படிக்கு,<br><br>(கையொப்பம்)<br>{{legalManager}}<br>வழக்கறிஞர் / சட்ட மேலாளர்<br>கடன் வழங்குநரின் சார்பாக</p>
</div>`;

interface CardWording {
  lang: string;
  heading: string;
  ref: string;
  date: string;
  to: string;
  mobile: string;
  email: string;
  subject: (lead: string) => string;
  salutation: string;
  opening: string;
  rows: [string, string, string, string];
  balance: string;
  consequences: string;
  contact: string;
  sign: string;
}

const hindiCard: CardWording = {
  lang: 'hi',
  heading: 'विधिक सूचना',
  ref: 'संदर्भ सं.',
  date: 'दिनांक',
  to: 'सेवा में',
  mobile: 'मोबाइल',
  email: 'ई-मेल',
  subject: (lead) => `विषय: क्रेडिट कार्ड संख्या {{maskNo}} (AAN {{aanNo}}, {{product}}) &mdash; ${lead}`,
  salutation: 'महोदय / महोदया,',
  opening:
    'हम अपने मुवक्किल, कार्ड जारीकर्ता बैंक, के निर्देशानुसार आपको सूचित करते हैं कि कार्डधारक अनुबंध की शर्तों के अधीन आपको जारी उक्त क्रेडिट कार्ड पर देय राशि का भुगतान नहीं किया गया है और खाता बकाया में है। आपके खाते की स्थिति इस प्रकार है:',
  rows: ['क्रेडिट सीमा', 'क्रेडिट सीमा से अधिक राशि', 'अतिदेय राशि', 'सूचना शेष (कुल देय)'],
  balance:
    'इस सूचना की तिथि तक आप पर कुल <strong>{{noticeBalance | inr}}</strong> (शब्दों में: {{noticeBalance | words}}) देय है।',
  consequences:
    'ध्यान रहे कि उक्त अवधि में भुगतान न करने अथवा उपस्थित न होने पर हमारे मुवक्किल आपके विरुद्ध विधि के अंतर्गत उपलब्ध समस्त कार्यवाही, जिसमें वसूली हेतु सिविल वाद भी सम्मिलित है, आपके जोखिम एवं व्यय पर आरंभ करने के लिए स्वतंत्र होंगे, और इसके लिए आपको पृथक सूचना नहीं दी जाएगी।',
  contact: 'किसी भी स्पष्टीकरण हेतु कृपया {{clmName}} से {{clmNo}} पर संपर्क करें ({{hub}}, {{location}})।',
  sign: 'भवदीय,<br><br>(हस्ताक्षर)<br>अधिकृत हस्ताक्षरकर्ता / अधिवक्ता<br>मुवक्किल की ओर से',
};

const tamilCard: CardWording = {
  lang: 'ta',
  heading: 'சட்ட அறிவிப்பு',
  ref: 'குறிப்பு எண்',
  date: 'தேதி',
  to: 'பெறுநர்',
  mobile: 'கைபேசி',
  email: 'மின்னஞ்சல்',
  subject: (lead) => `பொருள்: கடன் அட்டை எண் {{maskNo}} (AAN {{aanNo}}, {{product}}) &mdash; ${lead}`,
  salutation: 'ஐயா / அம்மையீர்,',
  opening:
    'எங்கள் கட்சிக்காரரான அட்டை வழங்கும் வங்கியின் அறிவுறுத்தலின் பேரில், அட்டைதாரர் ஒப்பந்தத்தின் நிபந்தனைகளின்படி உங்களுக்கு வழங்கப்பட்ட மேற்கண்ட கடன் அட்டையின் நிலுவைத் தொகை செலுத்தப்படவில்லை என்பதை இதன் மூலம் தெரிவிக்கிறோம். உங்கள் கணக்கின் நிலை பின்வருமாறு:',
  rows: ['கடன் வரம்பு', 'கடன் வரம்பைத் தாண்டிய தொகை', 'காலம் கடந்த நிலுவைத் தொகை', 'அறிவிப்பு நிலுவைத் தொகை'],
  balance:
    'இந்த அறிவிப்புத் தேதியின்படி நீங்கள் செலுத்த வேண்டிய மொத்தத் தொகை <strong>{{noticeBalance | inr}}</strong> (எழுத்தில்: {{noticeBalance | words}}) ஆகும்.',
  consequences:
    'மேற்கண்ட காலத்திற்குள் தொகையைச் செலுத்தத் தவறினாலோ, கலந்துகொள்ளத் தவறினாலோ, தொகை வசூலுக்கான உரிமையியல் வழக்கு உட்பட, சட்டப்படி கிடைக்கும் அனைத்து நடவடிக்கைகளையும் மேலும் அறிவிப்பின்றி உங்கள் செலவிலும் பொறுப்பிலும் மேற்கொள்ள எங்கள் கட்சிக்காரருக்கு முழு உரிமை உண்டு.',
  contact: 'விளக்கம் தேவைப்படின் {{clmName}} அவர்களை {{clmNo}} என்ற எண்ணில் தொடர்புகொள்ளவும் ({{hub}}, {{location}}).',
  sign: 'இப்படிக்கு,<br><br>(கையொப்பம்)<br>அங்கீகரிக்கப்பட்ட கையொப்பதாரர் / வழக்கறிஞர்<br>கட்சிக்காரரின் சார்பாக',
};

const cardLetter = (w: CardWording, title: string, lead: string, ask: string) => `${style}
<div lang="${w.lang}">
<h1>${w.heading}</h1>
<h2>${title}</h2>
<div class="ref"><span>${w.ref}: {{referenceNo}}</span><span>${w.date}: {{noticeDate}}</span></div>
<p>${w.to},<br><strong>{{custName}}</strong><br>{{customerAddress}}<br>${w.mobile}: {{custMobileNo}} &middot; ${w.email}: {{emailId}}</p>
<p><strong>${w.subject(lead)}</strong></p>
<p>${w.salutation}</p>
<p>${w.opening}</p>
<table class="amounts">
  <tr><td>${w.rows[0]}</td><td>{{limit | inr}}</td></tr>
  <tr><td>${w.rows[1]}</td><td>{{amountExceededCreditLimit | inr}}</td></tr>
  <tr><td>${w.rows[2]}</td><td>{{overdueAmount | inr}}</td></tr>
  <tr><td><strong>${w.rows[3]}</strong></td><td><strong>{{noticeBalance | inr}}</strong></td></tr>
</table>
<p>${w.balance}</p>
<p>${ask}</p>
<p>${w.consequences}</p>
<p>${w.contact}</p>
<p class="sign">${w.sign}</p>
</div>`;

const hindiConciliation =
  'अतः माध्यस्थम् और सुलह अधिनियम, 1996 की धारा 62 के अंतर्गत आपको दिनांक <strong>{{campDate}}</strong> को {{campLocation}} में {{conciliatorName}} के समक्ष आयोजित सुलह शिविर में सूचना शेष राशि के निपटान हेतु उपस्थित होने के लिए आमंत्रित किया जाता है, अथवा आप इस सूचना की प्राप्ति के पंद्रह (15) दिनों के भीतर उक्त राशि का भुगतान कर दें। शिविर में उपस्थित न होने को इस आमंत्रण की अस्वीकृति माना जाएगा।';
const tamilConciliation =
  'ஆகவே, நடுவர் மற்றும் சமரசச் சட்டம், 1996, பிரிவு 62-இன் கீழ், அறிவிப்பு நிலுவைத் தொகையைத் தீர்வு செய்ய <strong>{{campDate}}</strong> அன்று {{campLocation}} இல் {{conciliatorName}} முன்னிலையில் நடைபெறும் சமரச முகாமில் கலந்துகொள்ள உங்களை அழைக்கிறோம்; அல்லது இந்த அறிவிப்பு கிடைத்த பதினைந்து (15) நாட்களுக்குள் அத்தொகையைச் செலுத்தவும். முகாமில் கலந்துகொள்ளாவிடில், இந்த அழைப்பை நிராகரித்ததாகக் கருதப்படும்.';

/** Per default template: its key, then the Hindi and Tamil title, subject and demand. */
const cardVariants: { key: string; hi: [string, string, string]; ta: [string, string, string] }[] = [
  {
    key: 'credit-card-default',
    hi: ['बकाया देय राशि की सूचना', 'बकाया देय राशि की सूचना।', hindiConciliation],
    ta: ['நிலுவைத் தொகை குறித்த அறிவிப்பு', 'நிலுவைத் தொகை குறித்த அறிவிப்பு.', tamilConciliation],
  },
  {
    key: 'performa-conciliation',
    hi: ['सुलह हेतु सूचना', 'माध्यस्थम् और सुलह अधिनियम, 1996 की धारा 62 के अंतर्गत सुलह का आमंत्रण।', hindiConciliation],
    ta: [
      'சமரசத்திற்கான அறிவிப்பு',
      'நடுவர் மற்றும் சமரசச் சட்டம், 1996, பிரிவு 62-இன் கீழ் சமரசத்திற்கான அழைப்பு.',
      tamilConciliation,
    ],
  },
  {
    key: 'arbitration-performa',
    hi: [
      'माध्यस्थम् का आह्वान करने की सूचना',
      'माध्यस्थम् और सुलह अधिनियम, 1996 की धारा 21 के अंतर्गत सूचना।',
      'चूँकि उक्त राशि अब तक अदत्त है, हमारे मुवक्किल एतद्द्वारा माध्यस्थम् और सुलह अधिनियम, 1996 की धारा 21 तथा कार्डधारक अनुबंध की शर्तों के अंतर्गत माध्यस्थम् का आह्वान करते हैं। {{conciliatorName}} को एकमात्र मध्यस्थ के रूप में प्रस्तावित किया जाता है; इस पर आपकी कोई आपत्ति हो तो इस सूचना की तिथि से तीस (30) दिनों के भीतर लिखित रूप में प्रस्तुत करें। इसी अवधि में बकाया राशि का पूर्ण भुगतान कर आप आगे की कार्यवाही से बच सकते हैं।',
    ],
    ta: [
      'நடுவர் நடவடிக்கை தொடங்குவதற்கான அறிவிப்பு',
      'நடுவர் மற்றும் சமரசச் சட்டம், 1996, பிரிவு 21-இன் கீழ் அறிவிப்பு.',
      'நிலுவைத் தொகை இதுவரை செலுத்தப்படாததால், நடுவர் மற்றும் சமரசச் சட்டம், 1996, பிரிவு 21 மற்றும் அட்டைதாரர் ஒப்பந்த நிபந்தனைகளின்படி எங்கள் கட்சிக்காரர் இதன் மூலம் நடுவர் நடவடிக்கையைத் தொடங்குகிறார். {{conciliatorName}} அவர்கள் ஒரே நடுவராக முன்மொழியப்படுகிறார்; இதற்கு ஏதேனும் ஆட்சேபனை இருப்பின், இந்த அறிவிப்புத் தேதியிலிருந்து முப்பது (30) நாட்களுக்குள் எழுத்து மூலம் தெரிவிக்கவும். அதே காலத்திற்குள் நிலுவைத் தொகை முழுவதையும் செலுத்தினால் மேல் நடவடிக்கை தவிர்க்கப்படும்.',
    ],
  },
  {
    key: 'dln-performa',
    hi: [
      'भुगतान की माँग हेतु विधिक सूचना',
      'सूचना शेष राशि के भुगतान की माँग।',
      'अतः आपसे माँग की जाती है कि इस सूचना की प्राप्ति के पंद्रह (15) दिनों के भीतर सूचना शेष राशि का पूर्ण भुगतान करें, अन्यथा हमारे मुवक्किल आपके विरुद्ध विधिक कार्यवाही आरंभ करेंगे, जिसमें दिनांक {{campDate}} को {{campLocation}} में सुलह शिविर तथा विधि द्वारा अनुमत अन्य कार्यवाही सम्मिलित है, जिसके व्यय का जोखिम आपका होगा।',
    ],
    ta: [
      'தொகை செலுத்தக் கோரும் சட்ட அறிவிப்பு',
      'அறிவிப்பு நிலுவைத் தொகையைச் செலுத்தக் கோரிக்கை.',
      'ஆகவே, இந்த அறிவிப்பு கிடைத்த பதினைந்து (15) நாட்களுக்குள் அறிவிப்பு நிலுவைத் தொகை முழுவதையும் செலுத்துமாறு உங்களைக் கோருகிறோம்; தவறினால், {{campDate}} அன்று {{campLocation}} இல் நடைபெறும் சமரச முகாம் உட்பட, சட்டம் அனுமதிக்கும் அனைத்து நடவடிக்கைகளையும் உங்கள் செலவில் எங்கள் கட்சிக்காரர் மேற்கொள்வார்.',
    ],
  },
];

const languageNames = { hi: 'Hindi', ta: 'Tamil' } as const;

/** Every seeded variant: the default's key, the language, and the HTML. */
const seeds: { base: string; language: 'hi' | 'ta'; html: string }[] = [
  { base: 'notice-default', language: 'hi', html: hindiNotice },
  { base: 'notice-default', language: 'ta', html: tamilNotice },
  ...cardVariants.flatMap((card) => [
    { base: card.key, language: 'hi' as const, html: cardLetter(hindiCard, ...card.hi) },
    { base: card.key, language: 'ta' as const, html: cardLetter(tamilCard, ...card.ta) },
  ]),
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['email_templates', 'whatsapp_templates']) {
    await db.schema.alterTable(table).addColumn('language', 'text').execute();
    await db.schema.alterTable(table).addColumn('variant_of', 'text').execute();
    // One variant per language of a default; defaults (both columns null) are never equal in a unique index.
    await db.schema
      .createIndex(`${table}_variant_idx`)
      .on(table)
      .columns(['variant_of', 'language'])
      .unique()
      .execute();
  }
  for (const table of ['credit_cards', 'notices']) {
    await db.schema
      .alterTable(table)
      .addColumn('language', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  }
  const bases: { id: string; key: string; name: string; kind: string }[] = await db
    .selectFrom('email_templates')
    .select(['id', 'key', 'name', 'kind'])
    .where(
      'key',
      'in',
      seeds.map((seed) => seed.base),
    )
    .execute();
  const now = new Date().toISOString();
  const rows = seeds.flatMap((seed, i) => {
    const base = bases.find((row) => row.key === seed.base);
    if (!base) return [];
    return [
      {
        // Fixed ids: every database seeded by this migration names its seeds alike.
        id: `0190c000-0000-7000-8000-0000000003${String(i).padStart(2, '0')}`,
        key: `${base.key}.${seed.language}`,
        name: `${base.name} (${languageNames[seed.language]})`,
        kind: base.kind,
        html: seed.html,
        language: seed.language,
        variant_of: base.id,
        created_at: now,
        updated_at: now,
      },
    ];
  });
  if (rows.length > 0) await db.insertInto('email_templates').values(rows).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['notices', 'credit_cards'])
    await db.schema.alterTable(table).dropColumn('language').execute();
  for (const table of ['whatsapp_templates', 'email_templates']) {
    await db.deleteFrom(table).where('variant_of', 'is not', null).execute();
    await db.schema.dropIndex(`${table}_variant_idx`).execute();
    await db.schema.alterTable(table).dropColumn('variant_of').execute();
    await db.schema.alterTable(table).dropColumn('language').execute();
  }
}
