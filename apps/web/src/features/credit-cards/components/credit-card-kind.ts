import type { CreditCard, CreditCardFields } from '@notice-desk/contract/credit-card';
import { campaignColumn } from '../../../components/records/campaign-column.tsx';
import type { RecordKindScreens } from '../../../components/records/record-kinds.ts';
import { formatCreditCardListDate } from '../../../utils/format-date.ts';
import { creditCardsApi } from '../api/credit-cards-api.ts';

/** What the shared record screens show of credit cards. */
export const creditCardKind: RecordKindScreens<CreditCard, CreditCardFields> = {
  type: 'credit-card',
  api: creditCardsApi,
  columns: [
    { id: 'custName', header: 'Arqn Name', cell: (creditCard) => creditCard.custName, card: 'title' },
    { id: 'noticeBalance', header: 'Notice Balance', cell: (creditCard) => creditCard.noticeBalance },
    { id: 'maskNo', header: 'Maskcard', cell: (creditCard) => creditCard.maskNo },
    campaignColumn('credit-card'),
    { id: 'date', header: 'Date', cell: (creditCard) => formatCreditCardListDate(creditCard.campDate ?? '') },
  ],
  // The masked card number tells two cards of one customer apart.
  reference: (creditCard) => creditCard.maskNo ?? '',
};
