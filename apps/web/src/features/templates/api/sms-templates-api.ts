import type { CampaignType } from '@notice-desk/contract/campaigns';
import type { SmsTemplate, SmsTemplates, SmsTemplateUpdate } from '@notice-desk/contract/sms-templates';
import { api } from '../../../lib/api.ts';

const smsCache = api.enhanceEndpoints({ addTagTypes: ['SmsTemplates'] });

export const smsTemplatesApi = smsCache.injectEndpoints({
  endpoints: (build) => ({
    getSmsTemplates: build.query<SmsTemplates, void>({
      query: () => '/api/smstemplates/dlt',
      providesTags: ['SmsTemplates'],
    }),
    setSmsTemplate: build.mutation<SmsTemplate, { kind: CampaignType; body: SmsTemplateUpdate }>({
      query: ({ kind, body }) => ({
        url: `/api/smstemplates/dlt/${encodeURIComponent(kind)}`,
        method: 'PUT',
        body,
      }),
      invalidatesTags: (_result, error) => (error ? [] : ['SmsTemplates']),
    }),
  }),
});

export const { useGetSmsTemplatesQuery, useSetSmsTemplateMutation } = smsTemplatesApi;
