import type {
  NoticePageDetails,
  NoticePageDone,
  NoticePageIntro,
  NoticePageToken,
  NoticeResponseKind,
} from '@notice-desk/contract/notice-page';

/**
 * The public notice page's calls, on plain fetch: the page is its own small entry (notice.html) and
 * does not carry the staff app's store. Types only from the contract, so zod stays out of this bundle.
 */

/** A refused or failed call: the HTTP status (0 when nothing came back) and the server's message. */
export class NoticePageCallError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The server's error code ('WRONG_ANSWER', 'LINK_LOCKED', 'NOT_AVAILABLE', …); '' when none came. */
    readonly code = '',
    /** Set when the server says the link is locked (too many wrong answers): when it opens again. */
    readonly lockedUntil: string | null = null,
  ) {
    super(message);
    this.name = 'NoticePageCallError';
  }
}

/** The contract's linkChannelCodes keys (e, w, s, p), repeated to keep zod out of the bundle. */
const linkChannelLetters = ['e', 'w', 's', 'p'];

const base = (code: string) => `/api/public/notices/${encodeURIComponent(code)}`;

async function readError(response: Response): Promise<NoticePageCallError> {
  const body: unknown = await response.json().catch(() => null);
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const message = typeof fields.message === 'string' ? fields.message : response.statusText;
  const code = typeof fields.code === 'string' ? fields.code : '';
  // A locked link answers 429 LINK_LOCKED with Retry-After: the seconds until it opens again.
  const retryAfter = Number(response.headers.get('retry-after'));
  const lockedUntil =
    code === 'LINK_LOCKED' && retryAfter > 0 ? new Date(Date.now() + retryAfter * 1000).toISOString() : null;
  return new NoticePageCallError(response.status, message, code, lockedUntil);
}

async function send(url: string, init: RequestInit = {}): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    throw new NoticePageCallError(0, error instanceof Error ? error.message : 'The request failed.');
  }
  if (!response.ok) throw await readError(response);
  return response;
}

const json = async <T>(url: string, init?: RequestInit) => (await (await send(url, init)).json()) as T;

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** `path` with the link's `?c=`; a `c` the server does not know would refuse the call: it goes without. */
const withChannel = (path: string, channel: string | null) =>
  channel && linkChannelLetters.includes(channel)
    ? `${path}?${new URLSearchParams({ c: channel }).toString()}`
    : path;

/** What the page shows before the check. `channel` is the link's `?c=` (which message carried it). */
export const getIntro = (code: string, channel: string | null) =>
  json<NoticePageIntro>(withChannel(base(code), channel));

/** The check; the token it gives carries the link's channel to every later event of the visit. */
export const verify = (code: string, answer: string, channel: string | null) =>
  json<NoticePageToken>(withChannel(`${base(code)}/verify`, channel), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ answer }),
  });

export const getDetails = (code: string, token: string) =>
  json<NoticePageDetails>(`${base(code)}/details`, { headers: bearer(token) });

/** The served PDF, the very bytes whose SHA-256 the details name. */
export const getPdf = async (code: string, token: string) =>
  (await send(`${base(code)}/pdf`, { headers: bearer(token) })).blob();

export const acknowledge = (code: string, token: string) =>
  json<NoticePageDone>(`${base(code)}/acknowledge`, { method: 'POST', headers: bearer(token) });

/** A response; with a file it goes as multipart (kind, text, file), else as JSON. */
export function respond(code: string, token: string, kind: NoticeResponseKind, text: string, file?: File) {
  if (file) {
    const form = new FormData();
    form.set('kind', kind);
    form.set('text', text);
    form.set('file', file);
    return json<NoticePageDone>(`${base(code)}/respond`, {
      method: 'POST',
      headers: bearer(token),
      body: form,
    });
  }
  return json<NoticePageDone>(`${base(code)}/respond`, {
    method: 'POST',
    headers: { ...bearer(token), 'Content-Type': 'application/json' },
    body: JSON.stringify({ kind, text }),
  });
}

/** Records that the visitor opened the UPI link; keepalive lets it finish while the UPI app opens. */
export const notePaymentLinkOpened = (code: string, token: string) =>
  send(`${base(code)}/payment-link`, { method: 'POST', headers: bearer(token), keepalive: true }).then(
    () => undefined,
    // Evidence of a tap is worth a try, never an error in the visitor's way.
    () => undefined,
  );
