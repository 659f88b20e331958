import type { CampaignType } from '@notice-desk/contract/campaigns';
import {
  legalBasisPaths,
  type LegalBasis,
  type LegalBasisBody,
  type LegalBasisSettings,
} from '@notice-desk/contract/service-dates';
import { api } from '../../../lib/api.ts';

// A save changes the respond-by dates every campaign shows: the campaign views read them afresh.
const legalBasisCache = api.enhanceEndpoints({ addTagTypes: ['LegalBasis'] });

export const legalBasisApi = legalBasisCache.injectEndpoints({
  endpoints: (build) => ({
    getLegalBasis: build.query<LegalBasisSettings, void>({
      query: () => legalBasisPaths.settings,
      providesTags: ['LegalBasis'],
    }),
    setLegalBasis: build.mutation<LegalBasis, { kind: CampaignType; body: LegalBasisBody }>({
      query: ({ kind, body }) => ({ url: legalBasisPaths.kind(kind), method: 'PUT', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['LegalBasis', 'Campaigns']),
    }),
    clearLegalBasis: build.mutation<LegalBasisSettings, { kind: CampaignType }>({
      query: ({ kind }) => ({ url: legalBasisPaths.kind(kind), method: 'DELETE' }),
      invalidatesTags: (_result, error) => (error ? [] : ['LegalBasis', 'Campaigns']),
    }),
  }),
});

export const { useGetLegalBasisQuery, useSetLegalBasisMutation, useClearLegalBasisMutation } = legalBasisApi;
