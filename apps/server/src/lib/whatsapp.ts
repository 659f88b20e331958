import { createHash } from 'node:crypto';
import { FormData, request } from 'undici';
import { newId } from './ids.ts';
import { TransientSendError } from './send-errors.ts';
import type { FileStore } from './storage.ts';
import { classifyWhatsappError, MEDIA_UPLOAD_ERROR, type CloudApiError } from './whatsapp-errors.ts';

export interface WhatsappDocument {
  /** E.164 digits. */
  to: string;
  pdf: Buffer;
  filename: string;
  caption: string;
  /** Ours for this message; Meta echoes it in status webhooks, and a peer can dedupe on it. */
  reference?: string;
}

export interface WhatsappReceipt {
  messageId: string;
  via: 'cloud-api' | 'outbox';
  /** The media id the PDF went by (Cloud API only). */
  mediaId?: string;
}

/** An approved template message: the notice PDF as its header document, the body's parameters in order. */
export interface WhatsappTemplateMessage {
  to: string;
  pdf: Buffer;
  filename: string;
  template: { name: string; language: string };
  bodyParameters: string[];
  /** The notice page's link as a URL button's dynamic suffix (the button at `index`). */
  linkButton?: { index: number; suffix: string };
  reference?: string;
}

export interface WhatsappSender {
  /** Where messages go: WhatsApp itself, or the outbox folder when the Cloud API is not configured. */
  readonly via: 'cloud-api' | 'outbox';
  /** A free-form document message with a caption: WhatsApp takes it only inside the 24-hour window. */
  sendDocument(message: WhatsappDocument): Promise<WhatsappReceipt>;
  sendTemplate(message: WhatsappTemplateMessage): Promise<WhatsappReceipt>;
}

export interface CloudApiOptions {
  apiUrl: string;
  token: string;
  phoneNumberId: string;
  /**
   * Whether WhatsApp failed a message for this media id after taking it (131053 by status webhook,
   * which may reach another process): the id is then not used again.
   */
  mediaFailed?: (mediaId: string) => Promise<boolean>;
}

/** What WhatsApp's Cloud API answered: its body, or its error object when it refused. */
type CloudApiAnswer =
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; status: number; error: CloudApiError | undefined };

/** A request to the Cloud API: a GET, or a POST of JSON text or a multipart form. */
interface CloudApiRequest {
  method: 'GET' | 'POST';
  body?: string | FormData;
  contentType?: string;
}

/**
 * One call, over undici's request() rather than fetch: a quarter of fetch's CPU time per call, which
 * counts at hundreds of messages a second (README, Benchmarks). WhatsApp has 30 s to answer.
 */
async function askCloudApi(url: string, token: string, call: CloudApiRequest): Promise<CloudApiAnswer> {
  let text: string;
  let status: number;
  try {
    const res = await request(url, {
      method: call.method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(call.contentType ? { 'content-type': call.contentType } : {}),
      },
      body: call.body,
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    status = res.statusCode;
    text = await res.body.text();
  } catch (err) {
    throw new TransientSendError(`WhatsApp could not be reached: ${(err as Error).message}`);
  }
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // A proxy's error page, or nothing at all: the status alone says what happened.
  }
  return status >= 200 && status < 300
    ? { ok: true, body }
    : { ok: false, status, error: body.error as CloudApiError | undefined };
}

/** What WhatsApp's Cloud API answered; an error answer becomes a retry or a final failure (whatsapp-errors.ts). */
async function callCloudApi(
  url: string,
  token: string,
  call: CloudApiRequest,
): Promise<Record<string, unknown>> {
  const answer = await askCloudApi(url, token, call);
  if (answer.ok) return answer.body;
  throw classifyWhatsappError(answer.status, answer.error);
}

/**
 * How long an uploaded PDF's media id is used again. WhatsApp keeps uploaded media for 30 days; a
 * resend (of failed messages, or of a whole campaign) within a week reuses the upload.
 */
export const MEDIA_REUSE_MS = 7 * 24 * 60 * 60 * 1000;
/** Media ids remembered at most (about 100 bytes each). */
const MEDIA_IDS_KEPT = 20_000;
/** What WhatsApp answers a message whose media id it no longer has (deleted, expired): upload again. */
const mediaGone = new Set([100, MEDIA_UPLOAD_ERROR]);

/**
 * The Meta WhatsApp Cloud API: the PDF is uploaded as media, then sent as the header document of an
 * approved template message, or (session mode) as a document message with the WhatsApp text as caption.
 * A PDF is uploaded once per phone number: the same PDF under the same name (a resend) goes again by
 * the media id it got, while WhatsApp keeps it and has failed no message sent by it for its media.
 */
export function cloudApiSender(options: CloudApiOptions): WhatsappSender {
  const base = `${options.apiUrl.replace(/\/$/, '')}/${options.phoneNumberId}`;
  /** Media ids by PDF hash and file name, oldest first; an upload in flight is shared by its PDF's other messages. */
  const uploads = new Map<string, { id: Promise<string>; at: number }>();
  const failed = options.mediaFailed ?? (() => Promise.resolve(false));

  async function upload(pdf: Buffer, filename: string): Promise<string> {
    const form = new FormData();
    form.append('messaging_product', 'whatsapp');
    form.append('type', 'application/pdf');
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), filename);
    const media = await callCloudApi(`${base}/media`, options.token, { method: 'POST', body: form });
    return String(media.id);
  }

  function uploadOnce(key: string, pdf: Buffer, filename: string) {
    const entry = { id: upload(pdf, filename), at: Date.now() };
    uploads.delete(key);
    if (uploads.size >= MEDIA_IDS_KEPT) uploads.delete(uploads.keys().next().value!);
    uploads.set(key, entry);
    // A failed upload is not remembered: the next message with this PDF uploads it again.
    entry.id.catch(() => forget(key, entry));
    return entry;
  }

  function forget(key: string, entry: { id: Promise<string> }) {
    if (uploads.get(key) === entry) uploads.delete(key);
  }

  /** Sends a message with the PDF as its document, by a media id this PDF already has when it can. */
  async function withDocument(
    pdf: Buffer,
    filename: string,
    send: (document: { id: string; filename: string }) => Promise<CloudApiAnswer>,
  ): Promise<WhatsappReceipt> {
    const key = `${createHash('sha256').update(pdf).digest('hex')}:${filename}`;
    const held = uploads.get(key);
    if (held && Date.now() - held.at < MEDIA_REUSE_MS) {
      const id = await held.id;
      // Not an id WhatsApp took a message with and then failed it for its media (said by webhook): the
      // same id would fail the same way.
      if (!(await failed(id))) {
        const answer = await send({ id, filename });
        if (answer.ok || !mediaGone.has(answer.error?.code ?? 0)) return receiptOf(answer, id);
        // WhatsApp no longer has it: nothing went out, so the message goes once more with a fresh upload.
      }
      forget(key, held);
    }
    const entry = uploadOnce(key, pdf, filename);
    const id = await entry.id;
    return receiptOf(await send({ id, filename }), id);
  }

  function post(to: string, reference: string | undefined, message: object): Promise<CloudApiAnswer> {
    return askCloudApi(`${base}/messages`, options.token, {
      method: 'POST',
      contentType: 'application/json',
      body: JSON.stringify({
        messaging_product: 'whatsapp',
        to,
        ...(reference ? { biz_opaque_callback_data: reference } : {}),
        ...message,
      }),
    });
  }

  return {
    via: 'cloud-api',
    sendDocument(message) {
      return withDocument(message.pdf, message.filename, (document) =>
        post(message.to, message.reference, {
          type: 'document',
          document: { ...document, caption: message.caption },
        }),
      );
    },
    sendTemplate(message) {
      return withDocument(message.pdf, message.filename, (document) =>
        post(message.to, message.reference, {
          type: 'template',
          template: {
            name: message.template.name,
            language: { code: message.template.language },
            components: [
              { type: 'header', parameters: [{ type: 'document', document }] },
              {
                type: 'body',
                parameters: message.bodyParameters.map((text) => ({ type: 'text', text })),
              },
              ...(message.linkButton
                ? [
                    {
                      type: 'button',
                      sub_type: 'url',
                      index: String(message.linkButton.index),
                      parameters: [{ type: 'text', text: message.linkButton.suffix }],
                    },
                  ]
                : []),
            ],
          },
        }),
      );
    },
  };
}

/** The message id WhatsApp gave a message it took (sent by `mediaId`); its refusal as a retry or a final failure. */
function receiptOf(answer: CloudApiAnswer, mediaId: string): WhatsappReceipt {
  if (!answer.ok) throw classifyWhatsappError(answer.status, answer.error);
  const id = (answer.body.messages as { id?: string }[] | undefined)?.[0]?.id;
  if (!id) throw new TransientSendError('WhatsApp answered without a message id.');
  return { messageId: id, via: 'cloud-api', mediaId };
}

/** A message template as the WhatsApp Business Management API lists it. */
export interface ProviderTemplate {
  name: string;
  language: string;
  status: string;
  /** Why Meta rejected it (INVALID_FORMAT, PROMOTIONAL…); NONE or absent otherwise. */
  rejectedReason?: string;
  /** The header's format (DOCUMENT, TEXT, IMAGE…), absent when it has none. */
  headerFormat?: string;
  /** How many distinct {{1}} or {{name}} parameters its body holds. */
  bodyParameters: number;
  /** The first URL button whose address ends in a {{1}} to fill (the notice page's code goes there). */
  urlButtonIndex?: number;
}

/** Reads a WhatsApp Business Account's message templates. */
export interface WhatsappTemplateDirectory {
  /** Every language of the templates called `name`. */
  find(name: string): Promise<ProviderTemplate[]>;
}

interface ListedTemplate {
  name?: string;
  language?: string;
  status?: string;
  rejected_reason?: string;
  components?: {
    type?: string;
    format?: string;
    text?: string;
    buttons?: { type?: string; url?: string }[];
  }[];
}

/** `GET /{waba-id}/message_templates?name=…`, following its pages (a name has a page per ~100 languages). */
export function cloudApiTemplates(options: {
  apiUrl: string;
  token: string;
  businessAccountId: string;
}): WhatsappTemplateDirectory {
  return {
    async find(name) {
      const found: ProviderTemplate[] = [];
      const query = new URLSearchParams({
        name,
        limit: '100',
        fields: 'name,language,status,rejected_reason,components',
      });
      let url: string | undefined =
        `${options.apiUrl.replace(/\/$/, '')}/${options.businessAccountId}/message_templates?${query}`;
      for (let page = 0; url && page < 10; page++) {
        const body = await callCloudApi(url, options.token, { method: 'GET' });
        for (const listed of (body.data ?? []) as ListedTemplate[]) {
          if (listed.name !== name) continue;
          const header = listed.components?.find((c) => c.type?.toUpperCase() === 'HEADER');
          const bodyText = listed.components?.find((c) => c.type?.toUpperCase() === 'BODY')?.text ?? '';
          const buttons = listed.components?.find((c) => c.type?.toUpperCase() === 'BUTTONS')?.buttons ?? [];
          const urlButtonIndex = buttons.findIndex(
            (button) => button.type?.toUpperCase() === 'URL' && /\{\{\s*1\s*\}\}/.test(button.url ?? ''),
          );
          found.push({
            name: listed.name,
            language: listed.language ?? '',
            status: (listed.status ?? 'UNKNOWN').toUpperCase(),
            ...(listed.rejected_reason && listed.rejected_reason !== 'NONE'
              ? { rejectedReason: listed.rejected_reason }
              : {}),
            ...(header?.format ? { headerFormat: header.format.toUpperCase() } : {}),
            bodyParameters: new Set([...bodyText.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1])).size,
            ...(urlButtonIndex >= 0 ? { urlButtonIndex } : {}),
          });
        }
        url = (body.paging as { next?: string } | undefined)?.next;
      }
      return found;
    },
  };
}

/** Without Cloud API settings: the message and its PDF are written to DATA_DIR/outbox, and say so. */
export function outboxSender(store: FileStore): WhatsappSender {
  return {
    via: 'outbox',
    sendTemplate() {
      return Promise.reject(new Error('The outbox sends WhatsApp documents, not templates.'));
    },
    async sendDocument(message) {
      const id = `outbox-${newId()}`;
      await store.writeBuffer(
        `outbox/${id}.whatsapp.json`,
        Buffer.from(
          JSON.stringify({ to: message.to, caption: message.caption, filename: message.filename }, null, 2),
        ),
      );
      await store.writeBuffer(`outbox/${id}.pdf`, message.pdf);
      return { messageId: id, via: 'outbox' };
    },
  };
}
