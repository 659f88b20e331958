import { saveFile, dispositionFileName } from '../utils/save-file.ts';
import { api } from './api.ts';

type Downloaded = { file: Blob; fileName: string | null };

/**
 * Reads a download: the file on success, the one JSON error shape otherwise (so readApiProblem
 * can say what went wrong).
 */
async function readDownload(response: Response): Promise<Downloaded | unknown> {
  if (response.ok) {
    return {
      file: await response.blob(),
      fileName: dispositionFileName(response.headers.get('content-disposition')),
    };
  }
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export type DownloadArgs = {
  url: string;
  /** The name to save under when the server does not name the file. */
  fileName: string;
};

/**
 * Files behind the bearer token (samples, reports, exports): fetched through the API client, so
 * the token stays in a header and never in a URL, then saved from an object URL.
 */
export const downloadApi = api.injectEndpoints({
  endpoints: (build) => ({
    downloadFile: build.mutation<null, DownloadArgs>({
      async queryFn({ url, fileName }, _api, _extraOptions, baseQuery) {
        const result = await baseQuery({ url, responseHandler: readDownload });
        if (result.error) return { error: result.error };
        const { file, fileName: served } = result.data as Downloaded;
        // The file itself never enters the store: only that the download happened.
        saveFile(file, served ?? fileName);
        return { data: null };
      },
    }),
  }),
});

export const { useDownloadFileMutation } = downloadApi;
