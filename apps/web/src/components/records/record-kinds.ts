import type { CampaignType } from '@notice-desk/contract/campaigns';
import { creditCardBody, creditCardSteps } from '@notice-desk/contract/credit-card';
import { messages } from '@notice-desk/contract/messages';
import { noticeBody, noticeSteps } from '@notice-desk/contract/notice';
import { paths } from '../../config/paths.ts';
import type { RecordKindHooks } from '../../lib/record-kind-api.ts';
import type { DataTableColumn } from '../ui/data-table.tsx';
import type { WizardStep } from '../wizard/step-wizard.tsx';

/** What the record screens say and where they lead, for one record kind. */
export type RecordKindWords = {
  /** The kind in a sentence, one and many: 'credit card', 'credit cards'. */
  one: string;
  many: string;
  /** The kind in a title or a toast: 'Add Credit Card', 'Credit Card Created Successfully.' */
  title: string;
  /** The list screen's name, for the way back to it. */
  listTitle: string;
  deletedMessage: string;
  paths: {
    list: { getHref: () => string };
    add: { getHref: () => string };
    edit: { getHref: (id: string) => string };
  };
  /** The kind's wizard steps and request body (the contract's). */
  steps: readonly WizardStep[];
  body: { parse: (values: Record<string, string>) => unknown };
  /** The fields holding a date (as text, day.month.year): each gets a date picker. */
  dateFields: ReadonlySet<string>;
};

/** Credit cards and notices share their screens; only these words, URLs and fields tell them apart. */
export const recordKinds: Record<CampaignType, RecordKindWords> = {
  'credit-card': {
    one: 'credit card',
    many: 'credit cards',
    title: 'Credit Card',
    listTitle: 'Credit Card',
    deletedMessage: messages.creditCardDeleted,
    paths: paths.creditCards,
    steps: creditCardSteps,
    body: creditCardBody,
    dateFields: new Set(['campDate', 'noticeDate']),
  },
  notice: {
    one: 'notice',
    many: 'notices',
    title: 'Notice',
    listTitle: 'Notice Concialation',
    deletedMessage: messages.noticeDeleted,
    paths: paths.notices,
    steps: noticeSteps,
    body: noticeBody,
    dateFields: new Set(['disbursalDate', 'conciliationDate', 'noticeSentOn', 'allocationDated']),
  },
};

/** 'credit card' → 'Credit card': the kind at the start of a sentence or as a name. */
export const capitalised = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);

/** A page of a kind's list, with the prefix of its records' PDF links. */
type RecordPage<TRecord> = { items: TRecord[]; total: number; pdfUrl: string };

/**
 * What a record kind's feature gives the shared list, wizard and edit screen: its hooks, its own
 * columns and the number that tells two customers of one name apart. Keep it a module constant.
 */
export type RecordKindScreens<TRecord, TFields> = {
  type: CampaignType;
  api: RecordKindHooks<TRecord, TFields, RecordPage<TRecord>>;
  /** The kind's own list columns, between 'No.' and 'Action'. */
  columns: readonly DataTableColumn<TRecord>[];
  /** e.g. the loan number: asked beside the customer name by a row's Delete, and names the evidence file. */
  reference: (record: TRecord) => string;
};
