import type { ReactNode } from 'react';
import type { CreditCard } from '@notice-desk/contract/credit-card';
import { messages } from '@notice-desk/contract/messages';
import { deleteRecordQuestion } from '../../../components/records/record-actions.tsx';
import { RecordList, type RecordListApi } from '../../../components/records/record-list.tsx';
import type { DataTableColumn } from '../../../components/ui/data-table.tsx';
import { paths } from '../../../config/paths.ts';
import { formatCreditCardListDate } from '../../../utils/format-date.ts';
import {
  useDeleteAllCreditCardsMutation,
  useGetCreditCardsDeletePreviewQuery,
  useDeleteCreditCardMutation,
  useGetCreditCardsQuery,
} from '../api/credit-cards-api.ts';

const creditCardsApi: RecordListApi<CreditCard> = {
  useRecords: useGetCreditCardsQuery,
  useDeleteRecord: useDeleteCreditCardMutation,
  useDeleteAll: useDeleteAllCreditCardsMutation,
  useDeleteAllPreview: useGetCreditCardsDeletePreviewQuery,
};

// The contract types credit-card fields by a plain string key, so a read may be undefined to TypeScript.
const customerName = (creditCard: CreditCard) => creditCard.custName ?? '';
const editHref = (id: string) => paths.creditCards.edit.getHref(id);
// The masked card number tells two cards of one customer apart.
const deleteQuestion = (creditCard: CreditCard) =>
  deleteRecordQuestion('credit card', customerName(creditCard), creditCard.maskNo ?? '');

const columns: DataTableColumn<CreditCard>[] = [
  { id: 'custName', header: 'Arqn Name', cell: (creditCard) => creditCard.custName, card: 'title' },
  { id: 'noticeBalance', header: 'Notice Balance', cell: (creditCard) => creditCard.noticeBalance },
  { id: 'maskNo', header: 'Maskcard', cell: (creditCard) => creditCard.maskNo },
  { id: 'date', header: 'Date', cell: (creditCard) => formatCreditCardListDate(creditCard.campDate ?? '') },
];

type CreditCardListProps = {
  /** The 'Import Excel' button with its modal, from the import feature; a disabled stand-in until then. */
  importExcel?: ReactNode;
};

/** /forms/credit-card: the signed-in user's credit cards, with add, import, delete and Delete All. */
export function CreditCardList({ importExcel }: CreditCardListProps) {
  return (
    <RecordList
      api={creditCardsApi}
      label="Credit cards"
      addLabel="Add Credit Card"
      addHref={paths.creditCards.add.getHref()}
      columns={columns}
      recordName={customerName}
      editHref={editHref}
      deleteQuestion={deleteQuestion}
      deletedMessage={messages.creditCardDeleted}
      deleteFailedMessage="The credit card could not be deleted."
      deleteAllFailedMessage="The credit cards could not be deleted."
      loadFailedMessage="The credit cards could not be loaded."
      deleteAllQuestion="Are you sure you want to delete all credit cards?"
      importExcel={importExcel}
    />
  );
}
