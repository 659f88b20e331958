import {
  languageField,
  recordKindContract,
  type FieldDefinition,
  type FieldsOf,
  type RecordListPage,
  type RecordSteps,
  type StoredRecord,
} from './record-fields.ts';
import { emailFieldNote, mobileFieldNote } from './serviceable.ts';

const field = (key: string, label: string): FieldDefinition => ({
  key,
  label,
  required: `${label} is required!!`,
});

/** A credit-card record as stored and answered: its fields, each a string, with what the server adds. */
export type CreditCardFields = FieldsOf<typeof creditCardSteps>;
export type CreditCard = StoredRecord<CreditCardFields>;
export type CreditCardList = RecordListPage<CreditCard>;

/** The credit-card wizard's three steps, in order, with the spec's labels and messages. */
export const creditCardSteps = [
  [
    field('hub', 'Hub'),
    field('location', 'Location'),
    field('aanNo', 'Aan No'),
    field('maskNo', 'Mask No'),
    field('product', 'Product'),
    field('activity', 'Activity'),
    field('custName', 'Customer Name'),
    field('customerAddress', 'Customer Address'),
    { ...field('emailId', 'Email'), note: emailFieldNote },
  ],
  [
    { ...field('custMobileNo', 'Customer Mobile No'), note: mobileFieldNote },
    field('noticeBalance', 'Notice Balance'),
    field('overdueAmount', 'Overdue Amount'),
    field('clmName', 'Clm Name'),
    field('clmNo', 'Clm No'),
    field('limit', 'Limit'),
    field('amountExceededCreditLimit', 'Amount Exceeded Credit Limit'),
    field('conciliatorName', 'Conciliator Name'),
    field('campDate', 'Camp Date'),
  ],
  [
    field('campLocation', 'Camp Location'),
    field('noticeDate', 'Notice Date'),
    field('referenceNo', 'Reference No'),
    languageField,
  ],
] as const satisfies RecordSteps;

export const { fields: creditCardFields, body: creditCardBody } = recordKindContract(creditCardSteps);
