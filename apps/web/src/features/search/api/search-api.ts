import type { SearchResponse } from '@notice-desk/contract/search';
import { api } from '../../../lib/api.ts';

export const searchApi = api.injectEndpoints({
  endpoints: (build) => ({
    // Any change to the records may change what a search finds.
    searchRecords: build.query<SearchResponse, string>({
      query: (q) => ({ url: '/api/search', params: { q } }),
      providesTags: ['Notices', 'CreditCards'],
    }),
  }),
});

export const { useSearchRecordsQuery } = searchApi;
