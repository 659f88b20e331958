import type { Kysely } from 'kysely';

// Frozen in time: never import app code here. Only SQL that SQLite and PostgreSQL share.
// Creates the template tables and seeds them once; later edits by ADMINs are never overwritten.

const style = `<style>
  @page { size: A4; margin: 18mm 16mm; }
  body { font-family: 'DejaVu Serif', 'Times New Roman', serif; font-size: 11.5pt; line-height: 1.45; color: #111; }
  h1 { font-size: 15pt; text-align: center; margin: 0 0 4mm; letter-spacing: 0.5px; }
  h2 { font-size: 12pt; text-align: center; margin: 0 0 6mm; font-weight: normal; }
  .meta td { padding: 1mm 3mm 1mm 0; vertical-align: top; }
  .ref { display: flex; justify-content: space-between; margin-bottom: 5mm; }
  table.amounts { border-collapse: collapse; margin: 3mm 0 5mm; }
  table.amounts td { border: 1px solid #444; padding: 1.5mm 3mm; }
  .sign { margin-top: 12mm; }
</style>`;

const noticeHtml = `${style}
<h1>NOTICE FOR CONCILIATION</h1>
<h2>Invitation to conciliation under Section 62 of the Arbitration and Conciliation Act, 1996</h2>
<div class="ref"><span>Ref. No.: {{uniqueId}} / Case ID {{legalCaseId}}</span><span>Date: {{noticeSentOn}}</span></div>
<p>To,<br><strong>{{custName}}</strong><br>{{address}}<br>{{address3}}, {{address4}}<br>{{city}}, {{state}} - {{zipCode}}<br>Mobile: {{custMobileNo}}</p>
<p><strong>Subject: Loan Account No. {{loanNo}} ({{product}}) &mdash; invitation to settle the outstanding dues through conciliation.</strong></p>
<p>Dear Sir / Madam,</p>
<p>You availed the above loan from our client, whose branch at {{branchAddress}} disbursed an amount of Rs. {{amtfin}} on {{disbursalDate}}, repayable in {{tenure}} monthly instalments of Rs. {{emiAmt}}. The vehicle financed is a {{modelNo}} bearing registration no. {{regdNo}}, chassis no. {{chassisNo}} and engine no. {{engineNo}}.</p>
<p>Despite repeated reminders you have defaulted in repayment, and the account has been classified at stage {{npaStage}}. As on the date of this notice a total of <strong>Rs. {{totalOverdueAmt}}</strong> is overdue.</p>
<p>Our client wishes to resolve the dispute amicably. Under Section 62 of the Arbitration and Conciliation Act, 1996, you are invited to a conciliation meeting before the conciliator <strong>{{concilator}}</strong> on <strong>{{conciliationDate}}</strong> at {{bankAddress}}. Please bring proof of identity and any receipts of payments made.</p>
<p>If you do not accept this invitation in writing or attend the meeting, it will be treated as a rejection under Section 62(4) of the Act, and our client shall be free to pursue every remedy available in law, without further notice.</p>
<p class="sign">Yours faithfully,<br><br>{{legalManager}}<br>For and on behalf of the lender</p>`;

const creditCardLetter = (title: string, lead: string, ask: string) => `${style}
<h1>${title}</h1>
<div class="ref"><span>Ref. No.: {{referenceNo}}</span><span>Date: {{noticeDate}}</span></div>
<p>To,<br><strong>{{custName}}</strong><br>{{customerAddress}}<br>Mobile: {{custMobileNo}} &middot; E-mail: {{emailId}}</p>
<p><strong>Subject: Credit card no. {{maskNo}} (AAN {{aanNo}}, {{product}}) &mdash; ${lead}</strong></p>
<p>Dear Sir / Madam,</p>
<p>The above credit card issued to you has fallen into arrears. The position of your account is:</p>
<table class="amounts">
  <tr><td>Credit limit</td><td>Rs. {{limit}}</td></tr>
  <tr><td>Amount over the credit limit</td><td>Rs. {{amountExceededCreditLimit}}</td></tr>
  <tr><td>Overdue amount</td><td>Rs. {{overdueAmount}}</td></tr>
  <tr><td><strong>Notice balance</strong></td><td><strong>Rs. {{noticeBalance}}</strong></td></tr>
</table>
<p>${ask}</p>
<p>For any clarification please contact {{clmName}} on {{clmNo}} ({{hub}}, {{location}}).</p>
<p class="sign">Yours faithfully,<br><br>Authorised Signatory</p>`;

const conciliationAsk =
  'Under Section 62 of the Arbitration and Conciliation Act, 1996 you are invited to a conciliation camp before {{conciliatorName}} on <strong>{{campDate}}</strong> at {{campLocation}}, to settle the notice balance. Failure to attend will be treated as a rejection of this invitation.';

const pdfTemplates = [
  { key: 'notice-default', name: 'Notice Conciliation', kind: 'notice', html: noticeHtml },
  {
    key: 'credit-card-default',
    name: 'Credit Card Notice',
    kind: 'credit-card',
    html: creditCardLetter('NOTICE OF OUTSTANDING DUES', 'notice of outstanding dues.', conciliationAsk),
  },
  {
    key: 'performa-conciliation',
    name: 'Performa Conciliation',
    kind: 'credit-card',
    html: creditCardLetter(
      'NOTICE FOR CONCILIATION',
      'invitation to conciliation under Section 62.',
      conciliationAsk,
    ),
  },
  {
    key: 'arbitration-performa',
    name: 'Arbitration Performa',
    kind: 'credit-card',
    html: creditCardLetter(
      'NOTICE INVOKING ARBITRATION',
      'notice under Section 21 of the Arbitration and Conciliation Act, 1996.',
      'As the dues remain unpaid, our client hereby invokes arbitration under Section 21 of the Arbitration and Conciliation Act, 1996 and the terms of the card agreement. {{conciliatorName}} is proposed as the sole arbitrator; you may state any objection within 30 days of this notice.',
    ),
  },
  {
    key: 'dln-performa',
    name: 'DLN Performa',
    kind: 'credit-card',
    html: creditCardLetter(
      'DEMAND LEGAL NOTICE',
      'demand for payment of the notice balance.',
      'You are called upon to pay the notice balance within 15 days of this notice, failing which our client shall initiate proceedings against you, including a conciliation camp on {{campDate}} at {{campLocation}} and such further action as the law allows, at your risk as to costs.',
    ),
  },
  {
    key: 'email-subject-notice',
    name: 'Notice e-mail subject',
    kind: 'notice',
    html: 'Notice for conciliation: loan account {{loanNo}}',
  },
  {
    key: 'email-body-notice',
    name: 'Notice e-mail body',
    kind: 'notice',
    html: '<p>Dear {{custName}},</p><p>Please find attached a notice for conciliation about your loan account {{loanNo}}. The conciliation meeting is on {{conciliationDate}}.</p><p>Regards,<br>{{legalManager}}</p>',
  },
  {
    key: 'email-subject-credit-card',
    name: 'Credit card e-mail subject',
    kind: 'credit-card',
    html: 'Legal notice: credit card {{maskNo}}',
  },
  {
    key: 'email-body-credit-card',
    name: 'Credit card e-mail body',
    kind: 'credit-card',
    html: '<p>Dear {{custName}},</p><p>Please find attached a legal notice about your credit card {{maskNo}}, with a notice balance of Rs. {{noticeBalance}}.</p><p>Regards,<br>Legal team</p>',
  },
];

const whatsappTemplates = [
  {
    key: 'notice',
    name: 'Notice Conciliation',
    kind: 'notice',
    value:
      'Dear {{custName}}, a notice for conciliation about loan account {{loanNo}} is attached. The conciliation meeting is on {{conciliationDate}} before {{concilator}}. Overdue: Rs. {{totalOverdueAmt}}.',
  },
  {
    key: 'credit-card',
    name: 'Credit Card',
    kind: 'credit-card',
    value:
      'Dear {{custName}}, a legal notice about your credit card {{maskNo}} is attached. Notice balance: Rs. {{noticeBalance}}. Conciliation camp: {{campDate}} at {{campLocation}}.',
  },
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, body] of [
    ['email_templates', 'html'],
    ['whatsapp_templates', 'value'],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('key', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn(body, 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  }
  const now = new Date().toISOString();
  // Fixed ids: every database seeded by this migration names its seeds alike.
  await db
    .insertInto('email_templates')
    .values(
      pdfTemplates.map((t, i) => ({
        ...t,
        id: `0190c000-0000-7000-8000-0000000001${String(i).padStart(2, '0')}`,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
  await db
    .insertInto('whatsapp_templates')
    .values(
      whatsappTemplates.map((t, i) => ({
        ...t,
        id: `0190c000-0000-7000-8000-0000000002${String(i).padStart(2, '0')}`,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('whatsapp_templates').execute();
  await db.schema.dropTable('email_templates').execute();
}
