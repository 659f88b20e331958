import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { saveFile, dispositionFileName } from '../utils/save-file.ts';
import { api, REQUEST_TIMEOUT_MS } from './api.ts';
import { selectAccessToken, signedOut, type SessionRootState } from './session.ts';

/** The one JSON error shape when the server gave one, else the text it sent. */
async function readProblem(response: Response): Promise<unknown> {
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

type Download = { file: Blob; fileName: string | null } | { error: FetchBaseQueryError };

/**
 * Fetches a file behind the bearer token. Not through the API's fetchBaseQuery: it reads every
 * answer a second time as text, which for a campaign's zip of PDFs would hold the whole file
 * twice, once as a string. The time-out covers waiting for the server to answer; the body then
 * takes as long as a large file needs.
 */
async function fetchDownload(url: string, token: string | null, signal: AbortSignal): Promise<Download> {
  // One controller for both ways a download stops: the caller gives up, or no answer in time.
  const controller = new AbortController();
  const stop = () => controller.abort();
  signal.addEventListener('abort', stop);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, REQUEST_TIMEOUT_MS);
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  try {
    let response: Response;
    try {
      response = await fetch(new Request(url, { headers, signal: controller.signal }));
    } finally {
      clearTimeout(timer);
    }
    if (!response.ok) return { error: { status: response.status, data: await readProblem(response) } };
    return {
      file: await response.blob(),
      fileName: dispositionFileName(response.headers.get('content-disposition')),
    };
  } catch (error) {
    return { error: { status: timedOut ? 'TIMEOUT_ERROR' : 'FETCH_ERROR', error: String(error) } };
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

/**
 * Files behind the bearer token (samples, reports, exports): fetched with the session's token in
 * a header, never in a URL, then saved from an object URL.
 */
export const downloadApi = api.injectEndpoints({
  endpoints: (build) => ({
    downloadFile: build.mutation<null, DownloadArgs>({
      async queryFn({ url, fileName }, { getState, dispatch, signal }) {
        const token = selectAccessToken(getState() as SessionRootState);
        const download = await fetchDownload(url, token, signal);
        if ('error' in download) {
          // As for every other call: a 401 means the session ended, and the guards go to /auth/login.
          if (download.error.status === 401) dispatch(signedOut());
          return { error: download.error };
        }
        // The file itself never enters the store: only that the download happened.
        saveFile(download.file, download.fileName ?? fileName);
        return { data: null };
      },
    }),
  }),
});

export const { useDownloadFileMutation } = downloadApi;
