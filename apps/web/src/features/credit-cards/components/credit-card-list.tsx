import type { ReactNode } from 'react';
import { RecordList } from '../../../components/records/record-list.tsx';
import { creditCardKind } from './credit-card-kind.ts';

/** /forms/credit-card: the signed-in user's credit cards, with add, import, delete and Delete All. */
export function CreditCardList({ importExcel }: { importExcel?: ReactNode }) {
  return <RecordList kind={creditCardKind} importExcel={importExcel} />;
}
