import { vi } from 'vitest';

export type SeenRequest = { method: string; path: string; search: URLSearchParams; request: Request };

/**
 * Stubs `fetch` with `answer`, which gets each request the app sends (already cloned, so its
 * body can still be read). `requests` keeps them in order.
 */
export function stubFetch(answer: (seen: SeenRequest) => Response | Promise<Response>) {
  const requests: SeenRequest[] = [];
  const fetch = vi.fn(async (request: Request) => {
    const url = new URL(request.url);
    const seen = {
      method: request.method,
      path: url.pathname,
      search: url.searchParams,
      request: request.clone(),
    };
    requests.push(seen);
    return answer(seen);
  });
  vi.stubGlobal('fetch', fetch);
  return { requests, fetch };
}
