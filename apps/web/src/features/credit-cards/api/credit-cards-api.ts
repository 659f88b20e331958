import type { CreditCard, CreditCardFields, CreditCardList } from '@notice-desk/contract/credit-card';
import { recordKindApi } from '../../../lib/record-kind-api.ts';

/** The kind's hooks (list, one, create, update, delete, Delete All and its preview). */
export const creditCardsApi = recordKindApi<CreditCard, CreditCardFields, CreditCardList>()({
  one: 'CreditCard',
  many: 'CreditCards',
  type: 'credit-card',
  baseUrl: '/api/credit-cards',
  deleteAllUrl: '/api/credit-cards/delete-all-credit-cards',
  listTag: 'CreditCards',
  recordTag: 'SingleCreditCard',
});
