import type { CampaignList, CampaignType, SingleCampaign } from '@notice-desk/contract/campaigns';
import { api } from '../../../lib/api.ts';

type PageArgs = { page: number; limit: number };

export const campaignsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCampaigns: build.query<CampaignList, PageArgs & { type: CampaignType }>({
      query: ({ type, page, limit }) => ({ url: `/api/campaigns/${type}`, params: { page, limit } }),
      providesTags: ['Campaigns'],
    }),
    getCampaign: build.query<SingleCampaign, PageArgs & { id: string }>({
      query: ({ id, page, limit }) => ({
        url: `/api/campaigns/single-campaign/${encodeURIComponent(id)}`,
        params: { page, limit },
      }),
      providesTags: ['Campaigns'],
    }),
    // The campaign goes with every record in it, so the record lists and the dashboard change too.
    deleteCampaign: build.mutation<{ message: string }, string>({
      query: (id) => ({ url: `/api/campaigns/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: [
        'Campaigns',
        'CreditCards',
        'SingleCreditCard',
        'Notices',
        'SingleNotice',
        'DashboardInfo',
      ],
    }),
  }),
});

export const { useGetCampaignsQuery, useGetCampaignQuery, useDeleteCampaignMutation } = campaignsApi;
