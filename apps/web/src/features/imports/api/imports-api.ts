import type {
  ImportProgress,
  StartImportBody,
  StartImportResponse,
  TemporaryUploadResponse,
} from '@notice-desk/contract/imports';
import { api } from '../../../lib/api.ts';
import { importKinds, type ImportKind } from '../utils/import-kinds.ts';

/** The spec's time-out for one progress request; the poll itself runs every 10 seconds. */
export const PROGRESS_TIMEOUT_MS = 10_000;

type UploadArgs = {
  kind: ImportKind;
  file: File;
  /** The file's name as the user wants it (renamed or not). */
  name: string;
};

type ProgressArgs = { kind: ImportKind; jobId: string };

export const importsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Step 1: the file goes to temporary storage; the answer's `data` is its stored name. */
    uploadImportFile: build.mutation<TemporaryUploadResponse, UploadArgs>({
      query: ({ kind, file, name }) => {
        const form = new FormData();
        form.append('type', kind);
        form.append('name', name);
        form.append('file', file, file.name);
        return { url: '/temporary-upload', method: 'POST', body: form };
      },
    }),
    /** Step 2: the import starts as a background job on the stored file. */
    startImport: build.mutation<StartImportResponse, StartImportBody & { kind: ImportKind }>({
      query: ({ kind, ...body }) => ({ url: importKinds[kind].startUrl, method: 'POST', body }),
    }),
    /**
     * The caller's latest import of the kind. `jobId` is the import being followed: it is not sent,
     * but it gives each import its own cache entry, so a new import never starts from the last
     * one's cached 100% or failure.
     */
    getImportProgress: build.query<ImportProgress, ProgressArgs>({
      query: ({ kind }) => ({ url: importKinds[kind].progressUrl, timeout: PROGRESS_TIMEOUT_MS }),
      // The spec names a cache group for the credit-card progress only.
      providesTags: (_result, _error, { kind }) =>
        kind === 'credit-card' ? ['CreditCardProgressCount'] : [],
    }),
  }),
});

export const { useUploadImportFileMutation, useStartImportMutation, useGetImportProgressQuery } = importsApi;
