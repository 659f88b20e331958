import {
  languageField,
  recordKindContract,
  type FieldsOf,
  type RecordListPage,
  type RecordSteps,
  type StoredRecord,
} from './record-fields.ts';
import { emailFieldNote, mobileFieldNote } from './serviceable.ts';

/** A notice as stored and answered: its fields, each a string, with what the server adds. */
export type NoticeFields = FieldsOf<typeof noticeSteps>;
export type Notice = StoredRecord<NoticeFields>;
export type NoticeList = RecordListPage<Notice>;

/** The notice wizard's four steps, in order, with the spec's labels and messages verbatim. */
export const noticeSteps = [
  [
    { key: 'loanNo', label: 'Loan No.', required: 'Loan No is required!!' },
    { key: 'custName', label: 'Customer Name', required: 'Name is required!!' },
    { key: 'product', label: 'Product', required: 'Aan No is required!!' },
    { key: 'branchAddress', label: 'Branch', required: 'Branch is required!!' },
    { key: 'hub', label: 'State', required: 'State is required!!' },
    { key: 'region', label: 'Region' },
    { key: 'callManager', label: 'Call Manager' },
    { key: 'clmMob', label: 'Mobile Clm', required: 'CLM Mobile Number is required!!' },
    { key: 'npaStage', label: 'Npa Stage', required: 'Stage is required!!' },
  ],
  [
    { key: 'amtfin', label: 'Amtfin', required: 'Amtfin is required!!' },
    { key: 'emiAmt', label: 'Emi', required: 'Emi is required!!' },
    { key: 'tenure', label: 'Tenture', required: 'Tenture is required!!' },
    { key: 'disbursalDate', label: 'Disb Date', required: 'Disb Date is required!!' },
    { key: 'totalOverdueAmt', label: 'Total due', required: 'Total Due is required!!' },
    { key: 'address', label: 'Adress1', required: 'Address is required!!' },
    { key: 'customerName2', label: 'Customer Name 2', required: 'Customer Name is required!!' },
    { key: 'address3', label: '01 Address 3', required: 'Address 3 is required!!' },
    { key: 'address4', label: '01 Address 4', required: 'Address 4 is required!!' },
  ],
  [
    // The spec's city defect (wrong text, wrong key) is fixed: the message names the city, under the city field.
    { key: 'city', label: '01 City', required: 'City is required!!' },
    { key: 'state', label: '01 State', required: 'State is required!!' },
    { key: 'zipCode', label: '01 Zip Code', required: 'Zip Code is required!!' },
    { key: 'modelNo', label: 'Model', required: 'Model is required!!' },
    { key: 'chassisNo', label: 'Chasis No.', required: 'Chasis No is required!!' },
    { key: 'engineNo', label: 'Engine No.', required: 'Engine No is required!!' },
    { key: 'regdNo', label: 'Reg No.', required: 'Reg No is required!!' },
    { key: 'concilator', label: 'Concilator', required: 'Conocilator 3 is required!!' },
    { key: 'bankAddress', label: 'Bank Address', required: 'Bank Address 4 is required!!' },
  ],
  [
    { key: 'conciliationDate', label: 'Conciliation Date', required: 'Conciliation Date is required!!' },
    { key: 'noticeSentOn', label: 'Notice Sent On', required: 'Notice Sent On is required!!' },
    { key: 'uniqueId', label: 'Unique Id', required: 'Unique Id is required!!' },
    { key: 'allocationDated', label: 'Allocation Date', required: 'Allocation Date is required!!' },
    { key: 'legalCaseId', label: 'Legal Case Id', required: 'Legal Case Id is required!!' },
    { key: 'emailId', label: 'Mail Id', required: 'Mail Id is required!!', note: emailFieldNote },
    {
      key: 'custMobileNo',
      label: 'Customer Mob No',
      required: 'Mobile Number is required!!',
      note: mobileFieldNote,
    },
    { key: 'legalManager', label: 'Legal Manager', required: 'Legal Manager is required!!' },
    { key: 'remark', label: 'Remark', required: 'Remark is required!!' },
    { key: 'modeOfDispatch', label: 'Mode Of Dispatch', required: 'Mode Of Dispatch is required!!' },
    languageField,
  ],
] as const satisfies RecordSteps;

export const { fields: noticeFields, body: noticeBody } = recordKindContract(noticeSteps);
