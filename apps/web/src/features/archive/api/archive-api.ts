import {
  archivePaths,
  type ArchivedCampaignList,
  type ArchivedRecordList,
} from '@notice-desk/contract/archive';
import type { CampaignType } from '@notice-desk/contract/campaigns';
import { api, type PageArgs } from '../../../lib/api.ts';

export const archiveApi = api.injectEndpoints({
  endpoints: (build) => ({
    getArchivedRecords: build.query<ArchivedRecordList, PageArgs & { kind: CampaignType }>({
      query: ({ kind, page, limit }) => ({ url: archivePaths.records(kind), params: { page, limit } }),
    }),
    getArchivedCampaigns: build.query<ArchivedCampaignList, PageArgs>({
      query: ({ page, limit }) => ({ url: archivePaths.campaigns, params: { page, limit } }),
    }),
  }),
});

export const { useGetArchivedRecordsQuery, useGetArchivedCampaignsQuery } = archiveApi;
