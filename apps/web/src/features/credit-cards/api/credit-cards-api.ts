import type { CreditCard, CreditCardFields, CreditCardList } from '@notice-desk/contract/credit-card';
import {
  deletePreviewPaths,
  type DeleteAllAnswer,
  type DeleteAnswer,
  type DeletePreview,
} from '@notice-desk/contract/archive';
import { api } from '../../../lib/api.ts';

/** A page of the list; `search` ('' or absent for all) filters the whole list on the server. */
type PageArgs = { page: number; limit: number; search?: string };

export const creditCardsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCreditCards: build.query<CreditCardList, PageArgs>({
      query: ({ page, limit, search }) => ({
        url: '/api/credit-cards/by-user-id',
        params: { page, limit, search: search || undefined },
      }),
      providesTags: ['CreditCards'],
    }),
    getCreditCard: build.query<CreditCard, string>({
      query: (id) => `/api/credit-cards/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [{ type: 'SingleCreditCard', id }],
    }),
    // A typed-in record joins the 'Manual entries' campaign and counts on the dashboard.
    createCreditCard: build.mutation<CreditCard, CreditCardFields>({
      query: (body) => ({ url: '/api/credit-cards', method: 'POST', body }),
      invalidatesTags: ['CreditCards', 'Campaigns', 'DashboardInfo'],
    }),
    updateCreditCard: build.mutation<CreditCard, { id: string; fields: CreditCardFields }>({
      query: ({ id, fields }) => ({
        url: `/api/credit-cards/${encodeURIComponent(id)}`,
        method: 'PUT',
        body: fields,
      }),
      invalidatesTags: (_result, _error, { id }) => [
        'CreditCards',
        'Campaigns',
        { type: 'SingleCreditCard', id },
      ],
    }),
    deleteCreditCard: build.mutation<DeleteAnswer, string>({
      query: (id) => ({ url: `/api/credit-cards/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, id) => [
        'CreditCards',
        'Campaigns',
        'DashboardInfo',
        { type: 'SingleCreditCard', id },
      ],
    }),
    deleteAllCreditCards: build.mutation<DeleteAllAnswer, void>({
      query: () => ({ url: '/api/credit-cards/delete-all-credit-cards', method: 'POST' }),
      invalidatesTags: ['CreditCards', 'SingleCreditCard', 'Campaigns', 'DashboardInfo'],
    }),
    // Asked each time the Delete All question opens, so never cached.
    getCreditCardsDeletePreview: build.query<DeletePreview, void>({
      query: () => deletePreviewPaths.all('credit-card'),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const {
  useGetCreditCardsQuery,
  useGetCreditCardQuery,
  useCreateCreditCardMutation,
  useUpdateCreditCardMutation,
  useDeleteCreditCardMutation,
  useDeleteAllCreditCardsMutation,
  useGetCreditCardsDeletePreviewQuery,
} = creditCardsApi;
