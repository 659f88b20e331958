import {
  legalBasisPaths,
  type CampaignLegalBasis,
  type LegalBasisBody,
} from '@notice-desk/contract/service-dates';
import type { CampaignList, CampaignType, SingleCampaign } from '@notice-desk/contract/campaigns';
import {
  sendConfirmPaths,
  type CampaignRecordIds,
  type SendMailBody,
  type SendResult,
  type SendSummary,
  type TestSendBody,
  type TestSendResult,
} from '@notice-desk/contract/sending';
import { deletePreviewPaths, type DeleteAnswer, type DeletePreview } from '@notice-desk/contract/archive';
import type { Funnel } from '@notice-desk/contract/funnel';
import { api } from '../../../lib/api.ts';

/** A page of the list; `search` ('' or absent for all) filters the whole list on the server. */
type PageArgs = { page: number; limit: number; search?: string };

/** The server answers a send once its messages went out or failed, within a minute; a little more here. */
const SEND_TIMEOUT_MS = 90_000;

const exportQuery = (campaignId: string) => new URLSearchParams({ campaignid: campaignId }).toString();

/** The campaign's report: every record with its delivery statuses, as .xlsx. */
export const campaignReportUrl = (type: CampaignType, campaignId: string) =>
  `/api/campaigns/export-reports/${type}?${exportQuery(campaignId)}`;

/** Every record's PDF of the campaign, as a zip. */
export const campaignZipUrl = (type: CampaignType, campaignId: string) =>
  `/api/campaigns/export-campaign/${type}?${exportQuery(campaignId)}`;

export const campaignsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCampaigns: build.query<CampaignList, PageArgs & { type: CampaignType }>({
      query: ({ type, page, limit, search }) => ({
        url: `/api/campaigns/${type}`,
        params: { page, limit, search: search || undefined },
      }),
      providesTags: ['Campaigns'],
    }),
    // `status` (one or more, comma-separated; '' or absent for all) filters the whole campaign on the server.
    getCampaign: build.query<SingleCampaign, PageArgs & { id: string; status?: string }>({
      query: ({ id, page, limit, search, status }) => ({
        url: `/api/campaigns/single-campaign/${encodeURIComponent(id)}`,
        params: { page, limit, search: search || undefined, status: status || undefined },
      }),
      providesTags: ['Campaigns'],
    }),
    // Sent → delivered → read → the notice page's steps, per channel; moves as sends and webhooks do.
    getCampaignFunnel: build.query<Funnel, string>({
      query: (id) => `/api/campaigns/${encodeURIComponent(id)}/funnel`,
      providesTags: ['Campaigns'],
    }),
    // A campaign's own legal basis (ADMIN): its respond-by dates and counts change with it.
    setCampaignLegalBasis: build.mutation<CampaignLegalBasis, { id: string; body: LegalBasisBody }>({
      query: ({ id, body }) => ({ url: legalBasisPaths.campaign(id), method: 'PUT', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['Campaigns']),
    }),
    clearCampaignLegalBasis: build.mutation<CampaignLegalBasis, { id: string }>({
      query: ({ id }) => ({ url: legalBasisPaths.campaign(id), method: 'DELETE' }),
      invalidatesTags: (_result, error) => (error ? [] : ['Campaigns']),
    }),
    // Every record of the campaign a status filter keeps, not one page: asked when needed, never cached.
    getCampaignRecordIds: build.query<CampaignRecordIds, { id: string; status: string }>({
      query: ({ id, status }) => ({
        url: `/api/campaigns/single-campaign/${encodeURIComponent(id)}/record-ids`,
        params: { status },
      }),
      keepUnusedDataFor: 0,
    }),
    // The campaign goes with every record in it, so the record lists and the dashboard change too.
    // What deleting a campaign would archive and erase: asked each time the question opens, never cached.
    getCampaignDeletePreview: build.query<DeletePreview, string>({
      query: (id) => deletePreviewPaths.campaign(id),
      keepUnusedDataFor: 0,
    }),
    deleteCampaign: build.mutation<DeleteAnswer, string>({
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
    // No cache refresh per request: a batch send refreshes the list once, after its last chunk.
    sendMail: build.mutation<SendResult, SendMailBody>({
      query: (body) => ({ url: '/api/campaigns/send-mail', method: 'POST', body, timeout: SEND_TIMEOUT_MS }),
    }),
    // What a send of these records would do, per channel: asked each time before a send, never cached.
    getSendSummary: build.mutation<SendSummary, { campaignId: string; ids: readonly string[] }>({
      query: ({ campaignId, ids }) => ({
        url: sendConfirmPaths.summary(campaignId),
        method: 'POST',
        body: { data: [...ids] },
      }),
    }),
    // One rendered notice to an address the person types; not service (no delivery is recorded).
    testSend: build.mutation<TestSendResult, TestSendBody & { campaignId: string }>({
      query: ({ campaignId, ...body }) => ({
        url: sendConfirmPaths.testSend(campaignId),
        method: 'POST',
        body,
        timeout: SEND_TIMEOUT_MS,
      }),
    }),
  }),
});

export const {
  useGetCampaignsQuery,
  useGetCampaignQuery,
  useGetCampaignFunnelQuery,
  useLazyGetCampaignRecordIdsQuery,
  useGetCampaignDeletePreviewQuery,
  useDeleteCampaignMutation,
  useSendMailMutation,
  useGetSendSummaryMutation,
  useTestSendMutation,
  useSetCampaignLegalBasisMutation,
  useClearCampaignLegalBasisMutation,
} = campaignsApi;
