import type {
  MutationDefinition,
  QueryDefinition,
  TypedUseMutation,
  TypedUseQuery,
} from '@reduxjs/toolkit/query/react';
import {
  deletePreviewPaths,
  type DeleteAllAnswer,
  type DeleteAnswer,
  type DeletePreview,
} from '@notice-desk/contract/archive';
import type { CampaignType } from '@notice-desk/contract/campaigns';
import { api, type ApiBaseQuery, type cacheTags, type PageArgs } from './api.ts';

/** A page of the list; `search` ('' or absent for all) filters the whole list on the server. */
export type RecordPageArgs = PageArgs & { search?: string };

type CacheTag = (typeof cacheTags)[number];

/** What differs between record kinds: their names, their URLs and their cache groups. */
export type RecordKind<TOne extends string, TMany extends string> = {
  /** The kind in endpoint names, one and many: 'Notice' and 'Notices' give getNotice, getNotices… */
  one: TOne;
  many: TMany;
  /** The kind's word in shared URLs (the delete preview). */
  type: CampaignType;
  /** e.g. '/api/notices': list under /by-user-id, one record under /{id}. */
  baseUrl: string;
  deleteAllUrl: string;
  /** The spec's cache groups: the list, and one record by id. */
  listTag: CacheTag;
  recordTag: CacheTag;
};

// The definitions as RTK Query types them, so each kind's hooks are named and typed from its words.
type Query<TArg, TResult> = QueryDefinition<TArg, ApiBaseQuery, CacheTag, TResult, 'api'>;
type Mutation<TArg, TResult> = MutationDefinition<TArg, ApiBaseQuery, CacheTag, TResult, 'api'>;

export type RecordKindEndpoints<TOne extends string, TMany extends string, TRecord, TFields, TList> = {
  [K in `get${TMany}`]: Query<RecordPageArgs, TList>;
} & { [K in `get${TOne}`]: Query<string, TRecord> } & {
  [K in `create${TOne}`]: Mutation<TFields, TRecord>;
} & { [K in `update${TOne}`]: Mutation<{ id: string; fields: TFields }, TRecord> } & {
  [K in `delete${TOne}`]: Mutation<string, DeleteAnswer>;
} & { [K in `deleteAll${TMany}`]: Mutation<void, DeleteAllAnswer> } & {
  [K in `get${TMany}DeletePreview`]: Query<void, DeletePreview>;
};

/** A kind's hooks under kind-neutral names, so one list, wizard and edit screen serve every kind. */
export type RecordKindHooks<TRecord, TFields, TList> = {
  useRecords: TypedUseQuery<TList, RecordPageArgs, ApiBaseQuery>;
  useRecord: TypedUseQuery<TRecord, string, ApiBaseQuery>;
  useCreate: TypedUseMutation<TRecord, TFields, ApiBaseQuery>;
  useUpdate: TypedUseMutation<TRecord, { id: string; fields: TFields }, ApiBaseQuery>;
  useDeleteRecord: TypedUseMutation<DeleteAnswer, string, ApiBaseQuery>;
  useDeleteAll: TypedUseMutation<DeleteAllAnswer, void, ApiBaseQuery>;
  useDeleteAllPreview: TypedUseQuery<DeletePreview, void, ApiBaseQuery>;
};

/**
 * Adds a record kind's endpoints (list, one, create, update, delete, Delete All and its preview) to
 * the app's one API and answers their hooks. Notices and credit cards differ only in the words and
 * URLs of `kind`. Called as `recordKindApi<Notice, NoticeFields, NoticeList>()(kind)`.
 */
export function recordKindApi<TRecord, TFields, TList>() {
  return <TOne extends string, TMany extends string>(
    kind: RecordKind<TOne, TMany>,
  ): RecordKindHooks<TRecord, TFields, TList> => {
    const { one, many, baseUrl, listTag, recordTag } = kind;
    const recordUrl = (id: string) => `${baseUrl}/${encodeURIComponent(id)}`;
    const { endpoints } = api.injectEndpoints({
      endpoints: (build) =>
        // Names built from the kind's words are plain strings to TypeScript; the type above names them.
        ({
          [`get${many}`]: build.query<TList, RecordPageArgs>({
            query: ({ page, limit, search }) => ({
              url: `${baseUrl}/by-user-id`,
              params: { page, limit, search: search || undefined },
            }),
            providesTags: [listTag],
          }),
          [`get${one}`]: build.query<TRecord, string>({
            query: recordUrl,
            providesTags: (_result, _error, id) => [{ type: recordTag, id }],
          }),
          // A typed-in record joins the 'Manual entries' campaign and counts on the dashboard.
          [`create${one}`]: build.mutation<TRecord, TFields>({
            query: (body) => ({ url: baseUrl, method: 'POST', body }),
            invalidatesTags: [listTag, 'Campaigns', 'DashboardInfo'],
          }),
          [`update${one}`]: build.mutation<TRecord, { id: string; fields: TFields }>({
            query: ({ id, fields }) => ({ url: recordUrl(id), method: 'PUT', body: fields }),
            invalidatesTags: (_result, _error, { id }) => [listTag, 'Campaigns', { type: recordTag, id }],
          }),
          [`delete${one}`]: build.mutation<DeleteAnswer, string>({
            query: (id) => ({ url: recordUrl(id), method: 'DELETE' }),
            invalidatesTags: (_result, _error, id) => [
              listTag,
              'Campaigns',
              'DashboardInfo',
              { type: recordTag, id },
            ],
          }),
          [`deleteAll${many}`]: build.mutation<DeleteAllAnswer, void>({
            query: () => ({ url: kind.deleteAllUrl, method: 'POST' }),
            invalidatesTags: [listTag, recordTag, 'Campaigns', 'DashboardInfo'],
          }),
          // Asked each time the Delete All question opens, so never cached.
          [`get${many}DeletePreview`]: build.query<DeletePreview, void>({
            query: () => deletePreviewPaths.all(kind.type),
            keepUnusedDataFor: 0,
          }),
        }) as unknown as RecordKindEndpoints<TOne, TMany, TRecord, TFields, TList>,
    });
    // The endpoint names stay the kind's own (one API holds both kinds); the screens see these.
    const byName = endpoints as unknown as Record<string, { useQuery?: unknown; useMutation?: unknown }>;
    return {
      useRecords: byName[`get${many}`]!.useQuery,
      useRecord: byName[`get${one}`]!.useQuery,
      useCreate: byName[`create${one}`]!.useMutation,
      useUpdate: byName[`update${one}`]!.useMutation,
      useDeleteRecord: byName[`delete${one}`]!.useMutation,
      useDeleteAll: byName[`deleteAll${many}`]!.useMutation,
      useDeleteAllPreview: byName[`get${many}DeletePreview`]!.useQuery,
    } as RecordKindHooks<TRecord, TFields, TList>;
  };
}
