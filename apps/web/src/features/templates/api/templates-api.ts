import type { CampaignType } from '@notice-desk/contract/campaigns';
import type { PreviewRecords, TemplatePreviewBody } from '@notice-desk/contract/template-preview';
import type { EmailTemplate, TemplateList, WhatsappTemplate } from '@notice-desk/contract/templates';
import { api, type PageArgs } from '../../../lib/api.ts';

type TemplateUpdate<TBody> = { id: string; body: TBody };
type PreviewArgs = TemplatePreviewBody;
/** The records a preview of a template (its kind and language) may print with, found by `q` when given. */
type PreviewRecordsArgs = { kind: CampaignType; language: string | null; q: string };
/** A default template's id and the language of the variant to add to it. */
type VariantArgs = { id: string; language: string };

/** A rendered PDF needs more time than a list read: the server may be starting its browser. */
const PREVIEW_TIMEOUT_MS = 120_000;

// The spec names no cache group for templates; these two keep a list and an edit page in step
// with a saved edit without refetching on every visit.
const templatesCache = api.enhanceEndpoints({ addTagTypes: ['WhatsappTemplates', 'EmailTemplates'] });

export const templatesApi = templatesCache.injectEndpoints({
  endpoints: (build) => ({
    getWhatsappTemplates: build.query<TemplateList<WhatsappTemplate>, PageArgs>({
      query: ({ page, limit }) => ({ url: '/api/whatsapptemplates/getdata', params: { page, limit } }),
      providesTags: ['WhatsappTemplates'],
    }),
    getWhatsappTemplate: build.query<WhatsappTemplate, string>({
      query: (id) => `/api/whatsapptemplates/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [{ type: 'WhatsappTemplates', id }],
    }),
    updateWhatsappTemplate: build.mutation<
      WhatsappTemplate,
      TemplateUpdate<Pick<WhatsappTemplate, 'key' | 'name' | 'value'>>
    >({
      query: ({ id, body }) => ({
        url: `/api/whatsapptemplates/update/${encodeURIComponent(id)}`,
        method: 'PUT',
        body,
      }),
      invalidatesTags: (_result, error, { id }) =>
        error ? [] : ['WhatsappTemplates', { type: 'WhatsappTemplates', id }],
    }),
    addWhatsappTemplateVariant: build.mutation<WhatsappTemplate, VariantArgs>({
      query: ({ id, language }) => ({
        url: `/api/whatsapptemplates/${encodeURIComponent(id)}/variants`,
        method: 'POST',
        body: { language },
      }),
      invalidatesTags: (_result, error, { id }) =>
        error ? [] : ['WhatsappTemplates', { type: 'WhatsappTemplates', id }],
    }),
    getEmailTemplates: build.query<TemplateList<EmailTemplate>, PageArgs>({
      query: ({ page, limit }) => ({ url: '/api/emailTemplates/getdata', params: { page, limit } }),
      providesTags: ['EmailTemplates'],
    }),
    getEmailTemplate: build.query<EmailTemplate, string>({
      query: (id) => `/api/emailTemplates/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [{ type: 'EmailTemplates', id }],
    }),
    updateEmailTemplate: build.mutation<
      EmailTemplate,
      TemplateUpdate<Pick<EmailTemplate, 'key' | 'name' | 'html'>>
    >({
      query: ({ id, body }) => ({
        url: `/api/emailTemplates/update/${encodeURIComponent(id)}`,
        method: 'PUT',
        body,
      }),
      invalidatesTags: (_result, error, { id }) =>
        error ? [] : ['EmailTemplates', { type: 'EmailTemplates', id }],
    }),
    addEmailTemplateVariant: build.mutation<EmailTemplate, VariantArgs>({
      query: ({ id, language }) => ({
        url: `/api/emailTemplates/${encodeURIComponent(id)}/variants`,
        method: 'POST',
        body: { language },
      }),
      invalidatesTags: (_result, error, { id }) =>
        error ? [] : ['EmailTemplates', { type: 'EmailTemplates', id }],
    }),
    /**
     * Renders unsaved template HTML to a PDF. Answers an object URL of the PDF (a string, so the
     * store stays serialisable); the caller revokes it once the PDF is open.
     */
    getPreviewRecords: build.query<PreviewRecords, PreviewRecordsArgs>({
      query: ({ kind, language, q }) => ({
        url: '/api/emailTemplates/preview-records',
        params: { kind, ...(language ? { language } : {}), ...(q ? { q } : {}) },
      }),
    }),
    previewEmailTemplate: build.mutation<string, PreviewArgs>({
      query: (body) => ({
        url: '/api/emailTemplates/preview',
        method: 'POST',
        body,
        timeout: PREVIEW_TIMEOUT_MS,
        responseHandler: async (response) =>
          response.ok ? URL.createObjectURL(await response.blob()) : response.json(),
      }),
    }),
  }),
});

export const {
  useGetWhatsappTemplatesQuery,
  useGetWhatsappTemplateQuery,
  useUpdateWhatsappTemplateMutation,
  useAddWhatsappTemplateVariantMutation,
  useGetEmailTemplatesQuery,
  useGetEmailTemplateQuery,
  useUpdateEmailTemplateMutation,
  useAddEmailTemplateVariantMutation,
  usePreviewEmailTemplateMutation,
  useGetPreviewRecordsQuery,
} = templatesApi;
