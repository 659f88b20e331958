import { AlignmentType, Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import { escapeHtml } from '../../lib/escape-html.ts';

/**
 * The certificate of section 63(4)(c) of the Bharatiya Sakshya Adhiniyam, 2023, in the form of its
 * Schedule: Part A (by the party) pre-filled with what the product knows, blanks for the deponent;
 * Part B (by the expert) blank. The same text as a PDF (printed by the product's HTML-to-PDF path) and
 * as a Word document (the `docx` package) to edit. The wording follows the Schedule; see docs/security.md.
 */
export interface CertificateFacts {
  /** What the bundle is of: "Notice LN1234 Rajesh Sharma", "Campaign May notices". */
  title: string;
  /** FIRM_NAME. */
  firmName: string;
  /** "Notice Desk 1.0.0". */
  product: string;
  /** "SQLite" or "PostgreSQL". */
  database: string;
  /** The host as configured (APP_URL's). */
  host: string;
  /** The records produced, each with what it is and its SHA-256. */
  files: { file: string; what: string; sha256: string }[];
  /** When the records were created: the first and last moment, DD-MM-YYYY HH:mm:ss IST; null: none yet. */
  period: { from: string; to: string } | null;
  /** When the bundle was made, DD-MM-YYYY HH:mm:ss IST. */
  generatedAt: string;
}

const BLANK = '____________________';
const BOX = '[\u00a0]';
const TICKED = '[X]';
/** 'DVR [ ]': a choice and its box, never split over two lines. */
const choice = (label: string, ticked = false) => `${label}\u00a0${ticked ? TICKED : BOX}`;

/** The Schedule's text, paragraph by paragraph; `party` fills Part A, Part B stays blank. */
function partText(facts: CertificateFacts | null): string[] {
  const device = [
    'Computer / Storage Media',
    'DVR',
    'Mobile',
    'Flash Drive',
    'CD/DVD',
    'Server',
    'Cloud',
    'Other',
  ]
    .map((label) => choice(label, facts !== null && label === 'Server'))
    .join(' ');
  const make = facts
    ? `Other: ${BLANK} Make & Model: ${facts.product} (software), with a ${facts.database} database  Color: ${BLANK}  Serial Number: ${BLANK}  IMEI/UIN/UID/MAC/Cloud ID: ${facts.host} (host as configured) (as applicable) and any other relevant information, if any, about the device/digital record: the records listed below, produced by ${facts.product} for ${facts.firmName}${facts.period ? `, created between ${facts.period.from} and ${facts.period.to}` : ''} (specify).`
    : `Other: ${BLANK} Make & Model: ${BLANK} Color: ${BLANK} Serial Number: ${BLANK} IMEI/UIN/UID/MAC/Cloud ID: ${BLANK} (as applicable) and any other relevant information, if any, about the device/digital record ${BLANK} (specify).`;
  const hash = facts
    ? `I state that the HASH value/s of the electronic/digital record/s is as listed in the table below, obtained through the following algorithm:— ${choice('SHA1')} ${choice('SHA256', true)} ${choice('MD5')} ${choice('Other')} ${BLANK} (Legally acceptable standard) (Hash report to be enclosed with the certificate)`
    : `I state that the HASH value/s of the electronic/digital record/s is ${BLANK}, obtained through the following algorithm:— ${choice('SHA1')} ${choice('SHA256')} ${choice('MD5')} ${choice('Other')} ${BLANK} (Legally acceptable standard) (Hash report to be enclosed with the certificate)`;
  return facts
    ? [
        `I, ${BLANK} (Name), Son/daughter/spouse of ${BLANK} residing/employed at ${BLANK} do hereby solemnly affirm and sincerely state and submit as follows:—`,
        `I have produced electronic record/output of the digital record taken from the following device/digital record source (tick mark):— ${device}`,
        make,
        'The digital device or the digital record source was under the lawful control for regularly creating, storing or processing information for the purposes of carrying out regular activities and during this period, the computer or the communication device was working properly and the relevant information was regularly fed into the computer during the ordinary course of business. If the computer/digital device at any point of time was not working properly or out of operation, then it has not affected the electronic/digital record or its accuracy.',
        `The digital device or the source of the digital record is:— ${choice('Owned')} ${choice('Maintained')} ${choice('Managed')} ${choice('Operated')} by me (select as applicable).`,
        hash,
      ]
    : [
        `I, ${BLANK} (Name), Son/daughter/spouse of ${BLANK} residing/employed at ${BLANK} do hereby solemnly affirm and sincerely state and submit as follows:—`,
        `The produced electronic record/output of the digital record are obtained from the following device/digital record source (tick mark):— ${device}`,
        make,
        hash,
      ];
}

const signatureLine = (who: string) =>
  `(${who}) ${BLANK}   Date (DD/MM/YYYY): ${BLANK}   Time (IST): ${BLANK} hours (In 24 hours format)   Place: ${BLANK}`;

/** The certificate as HTML, printed to PDF by the product's renderer. */
export function certificateHtml(facts: CertificateFacts): string {
  const e = escapeHtml;
  const rows = facts.files
    .map(
      (f, i) =>
        `<tr><td class="n">${i + 1}</td><td><b>${e(f.file)}</b><br>${e(f.what)}<br><span class="hash">${e(f.sha256)}</span></td></tr>`,
    )
    .join('');
  const paragraphs = (facts: CertificateFacts | null) =>
    partText(facts)
      .map((p) => `<p>${e(p)}</p>`)
      .join('');
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    body { font: 10.5pt/1.45 'Notice Serif', serif; margin: 16mm 18mm; color: #000; }
    h1 { font-size: 13pt; text-align: center; margin: 0 0 2pt; } .sub { text-align: center; margin: 0 0 10pt; }
    h2 { font-size: 11.5pt; margin: 14pt 0 6pt; text-align: center; }
    p { margin: 0 0 7pt; text-align: justify; }
    table { border-collapse: collapse; width: 100%; margin: 4pt 0 10pt; }
    td, th { border: 1px solid #666; padding: 3pt 5pt; vertical-align: top; text-align: left; }
    td.n { width: 6mm; text-align: right; white-space: nowrap; }
    .hash { font-family: monospace; font-size: 8pt; white-space: nowrap; }
    .part-b { break-before: page; } .sign { margin-top: 18pt; } tr { break-inside: avoid; }
  </style></head><body>
    <h1>THE SCHEDULE</h1>
    <p class="sub">[See section 63(4)(c)] — The Bharatiya Sakshya Adhiniyam, 2023<br><b>CERTIFICATE</b><br>${e(facts.title)} — made by ${e(facts.product)} on ${e(facts.generatedAt)}</p>
    <h2>PART A<br>(To be filled by the Party)</h2>
    ${paragraphs(facts)}
    <p><b>Hash report</b> (SHA-256 of each electronic record produced, as in manifest.json of this bundle):</p>
    <table><thead><tr><th class="n">#</th><th>Record, what it is, and its SHA-256</th></tr></thead><tbody>${rows}</tbody></table>
    <p class="sign">${e(signatureLine('Name and signature'))}</p>
    <section class="part-b">
    <h2>PART B<br>(To be filled by the Expert)</h2>
    ${paragraphs(null)}
    <p class="sign">${e(signatureLine('Name, designation and signature'))}</p>
    </section>
  </body></html>`;
}

/** The same certificate as a Word document, to edit before it is sworn. */
export async function certificateDocx(facts: CertificateFacts): Promise<Buffer> {
  const text = (t: string, bold = false) => new TextRun({ text: t, bold });
  const para = (t: string) => new Paragraph({ children: [text(t)], spacing: { after: 140 } });
  const centred = (t: string, heading?: (typeof HeadingLevel)[keyof typeof HeadingLevel]) =>
    new Paragraph({
      children: [text(t, true)],
      alignment: AlignmentType.CENTER,
      heading,
      spacing: { after: 100 },
    });
  const hashes = facts.files.flatMap((f, i) => [
    new Paragraph({ children: [text(`${i + 1}. ${f.file}`, true), text(` — ${f.what}`)] }),
    new Paragraph({
      children: [new TextRun({ text: f.sha256, font: 'Courier New', size: 16 })],
      spacing: { after: 100 },
    }),
  ]);
  const document = new Document({
    creator: facts.product,
    title: `Section 63 certificate — ${facts.title}`,
    styles: { default: { document: { run: { font: 'Times New Roman', size: 22 } } } },
    sections: [
      {
        children: [
          centred('THE SCHEDULE', HeadingLevel.TITLE),
          centred('[See section 63(4)(c)] — The Bharatiya Sakshya Adhiniyam, 2023'),
          centred('CERTIFICATE'),
          centred(`${facts.title} — made by ${facts.product} on ${facts.generatedAt}`),
          centred('PART A (To be filled by the Party)', HeadingLevel.HEADING_1),
          ...partText(facts).map(para),
          para(
            'Hash report (SHA-256 of each electronic record produced, as in manifest.json of this bundle):',
          ),
          ...hashes,
          para(signatureLine('Name and signature')),
        ],
      },
      {
        children: [
          centred('PART B (To be filled by the Expert)', HeadingLevel.HEADING_1),
          ...partText(null).map(para),
          para(signatureLine('Name, designation and signature')),
        ],
      },
    ],
  });
  return Packer.toBuffer(document);
}
