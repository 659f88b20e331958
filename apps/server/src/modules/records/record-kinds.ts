import { creditCardBody, creditCardFields } from '@notice-desk/contract/credit-card';
import { messages } from '@notice-desk/contract/messages';
import { noticeBody, noticeFields } from '@notice-desk/contract/notice';
import type { FieldDefinition } from '@notice-desk/contract/record-fields';
import type { RecordKind, RecordTable } from '../../db/schema.ts';

/** What differs between the two kinds of record; everything else about them is the same code. */
export interface RecordKindInfo {
  kind: RecordKind;
  table: RecordTable;
  fields: readonly FieldDefinition[];
  body: typeof creditCardBody | typeof noticeBody;
  /** 'Credit card' / 'Notice', for messages such as 'Notice not found.' */
  label: string;
  deletedMessage: string;
  routes: { base: string; list: string; deleteAll: string };
}

export const creditCardKind: RecordKindInfo = {
  kind: 'credit-card',
  table: 'credit_cards',
  fields: creditCardFields,
  body: creditCardBody,
  label: 'Credit card',
  deletedMessage: messages.creditCardDeleted,
  routes: {
    base: '/api/credit-cards',
    list: '/api/credit-cards/by-user-id',
    deleteAll: '/api/credit-cards/delete-all-credit-cards',
  },
};

export const noticeKind: RecordKindInfo = {
  kind: 'notice',
  table: 'notices',
  fields: noticeFields,
  body: noticeBody,
  label: 'Notice',
  deletedMessage: messages.noticeDeleted,
  routes: {
    base: '/api/notices',
    list: '/api/notices/by-user-id',
    deleteAll: '/api/notices/delete-all-notices',
  },
};

export const recordKinds: Record<RecordKind, RecordKindInfo> = {
  'credit-card': creditCardKind,
  notice: noticeKind,
};
