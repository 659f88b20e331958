import {
  postPaths,
  type ArticleAssignment,
  type ArticlesResult,
  type PostOverview,
  type PostProofResult,
  type TrackingResult,
} from '@notice-desk/contract/post';
import { api } from '../../../lib/api.ts';

const fileForm = (file: File, fields: Record<string, string> = {}) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', file, file.name);
  return form;
};

/** A campaign's post: its letters in print order, article numbers, tracking and AD cards. */
export const postApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPostOverview: build.query<PostOverview, string>({
      query: (campaignId) => postPaths.overview(campaignId),
      providesTags: ['Campaigns'],
    }),
    assignArticles: build.mutation<ArticlesResult, { campaignId: string; body: ArticleAssignment[] | File }>({
      query: ({ campaignId, body }) => ({
        url: postPaths.articles(campaignId),
        method: 'POST',
        body: body instanceof File ? fileForm(body) : body,
      }),
      invalidatesTags: ['Campaigns'],
    }),
    importTracking: build.mutation<TrackingResult, File>({
      query: (file) => ({ url: postPaths.tracking, method: 'POST', body: fileForm(file) }),
      invalidatesTags: ['Campaigns'],
    }),
    uploadProofs: build.mutation<{ message: string; kept: number }, { campaignId: string; file: File }>({
      query: ({ campaignId, file }) => ({
        url: postPaths.proofs(campaignId),
        method: 'POST',
        body: fileForm(file),
      }),
      invalidatesTags: ['Campaigns'],
    }),
    uploadProof: build.mutation<PostProofResult, { recordId: string; file: File; deliveredOn: string }>({
      query: ({ recordId, file, deliveredOn }) => ({
        url: postPaths.noticeProof(recordId),
        method: 'POST',
        body: fileForm(file, deliveredOn ? { deliveredOn } : {}),
      }),
      invalidatesTags: ['Campaigns'],
    }),
  }),
});

export const {
  useGetPostOverviewQuery,
  useAssignArticlesMutation,
  useImportTrackingMutation,
  useUploadProofsMutation,
} = postApi;
