import type {
  ColumnMapping,
  ImportPreview,
  ImportProgress,
  StartImportBody,
  StartImportResponse,
  TemporaryUploadResponse,
} from '@notice-desk/contract/imports';
import { api } from '../../../lib/api.ts';
import { importKinds, type ImportKind } from '../utils/import-kinds.ts';

/** The spec's time-out for one progress request (polled every 10 s, every second while the import is young). */
export const PROGRESS_TIMEOUT_MS = 10_000;

type UploadArgs = {
  kind: ImportKind;
  file: File;
  /** The file's name as the user wants it (renamed or not). */
  name: string;
};

type ProgressArgs = { kind: ImportKind; jobId: string };

export type PreviewArgs = {
  kind: ImportKind;
  /** The stored name the upload answered. */
  file: string;
  headerRow?: number;
  /** The user's choices so far; absent: the mapping found (or remembered). */
  columns?: ColumnMapping['columns'];
  /** false: the quick look before starting (no problem count). */
  scan: boolean;
};

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
    /** How the upload would import: header row, each column's field, first rows, problem count. */
    getImportPreview: build.query<ImportPreview, PreviewArgs>({
      query: ({ kind, file, headerRow, columns, scan }) => ({
        url: `/api/imports/uploads/${encodeURIComponent(file)}/preview`,
        params: {
          kind,
          scan: String(scan),
          ...(headerRow !== undefined && { headerRow: String(headerRow) }),
          ...(columns !== undefined && { columns: JSON.stringify(columns) }),
        },
      }),
      // A preview is of one upload at one moment: nothing to share or keep.
      keepUnusedDataFor: 0,
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

export const {
  useUploadImportFileMutation,
  useStartImportMutation,
  useGetImportProgressQuery,
  useGetImportPreviewQuery,
  useLazyGetImportPreviewQuery,
} = importsApi;
