import type { CampaignType } from '@notice-desk/contract/campaigns';
import type {
  ApprovedTemplate,
  ApprovedTemplates,
  ApprovedTemplateUpdate,
} from '@notice-desk/contract/whatsapp-approved';
import { api } from '../../../lib/api.ts';

// Each read asks Meta afresh for the templates' status; the tag keeps the screen in step with a save.
const approvedCache = api.enhanceEndpoints({ addTagTypes: ['ApprovedTemplates'] });

export const approvedTemplatesApi = approvedCache.injectEndpoints({
  endpoints: (build) => ({
    getApprovedTemplates: build.query<ApprovedTemplates, void>({
      query: () => '/api/whatsapptemplates/approved',
      providesTags: ['ApprovedTemplates'],
    }),
    setApprovedTemplate: build.mutation<
      ApprovedTemplate,
      { kind: CampaignType; body: ApprovedTemplateUpdate }
    >({
      query: ({ kind, body }) => ({
        url: `/api/whatsapptemplates/approved/${encodeURIComponent(kind)}`,
        method: 'PUT',
        body,
      }),
      invalidatesTags: (_result, error) => (error ? [] : ['ApprovedTemplates']),
    }),
  }),
});

export const { useGetApprovedTemplatesQuery, useSetApprovedTemplateMutation } = approvedTemplatesApi;
