import fs from 'node:fs/promises';
import path from 'node:path';
import { newId } from './ids.ts';
import { TransientSendError } from './send-errors.ts';
import { classifyWhatsappError, type CloudApiError } from './whatsapp-errors.ts';

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
}

/** An approved template message: the notice PDF as its header document, the body's parameters in order. */
export interface WhatsappTemplateMessage {
  to: string;
  pdf: Buffer;
  filename: string;
  template: { name: string; language: string };
  bodyParameters: string[];
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
}

/** What WhatsApp's Cloud API answered; an error answer becomes a retry or a final failure (whatsapp-errors.ts). */
async function callCloudApi(
  url: string,
  token: string,
  init: RequestInit = {},
): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    res = await fetch(url, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...init.headers },
      signal: AbortSignal.timeout(30_000),
    });
  } catch (err) {
    throw new TransientSendError(`WhatsApp could not be reached: ${(err as Error).message}`);
  }
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (res.ok) return body;
  throw classifyWhatsappError(res.status, body.error as CloudApiError | undefined);
}

/**
 * The Meta WhatsApp Cloud API: the PDF is uploaded as media, then sent as the header document of an
 * approved template message, or (session mode) as a document message with the WhatsApp text as caption.
 */
export function cloudApiSender(options: CloudApiOptions): WhatsappSender {
  const base = `${options.apiUrl.replace(/\/$/, '')}/${options.phoneNumberId}`;
  const call = (url: string, init: RequestInit) => callCloudApi(url, options.token, init);

  async function upload(pdf: Buffer, filename: string) {
    const form = new FormData();
    form.append('messaging_product', 'whatsapp');
    form.append('type', 'application/pdf');
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), filename);
    const media = await call(`${base}/media`, { method: 'POST', body: form });
    return { id: String(media.id), filename };
  }

  async function post(to: string, reference: string | undefined, message: object): Promise<WhatsappReceipt> {
    const sent = await call(`${base}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        messaging_product: 'whatsapp',
        to,
        ...(reference ? { biz_opaque_callback_data: reference } : {}),
        ...message,
      }),
    });
    const id = (sent.messages as { id?: string }[] | undefined)?.[0]?.id;
    if (!id) throw new TransientSendError('WhatsApp answered without a message id.');
    return { messageId: id, via: 'cloud-api' };
  }

  return {
    via: 'cloud-api',
    async sendDocument(message) {
      const document = await upload(message.pdf, message.filename);
      return post(message.to, message.reference, {
        type: 'document',
        document: { ...document, caption: message.caption },
      });
    },
    async sendTemplate(message) {
      const document = await upload(message.pdf, message.filename);
      return post(message.to, message.reference, {
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
          ],
        },
      });
    },
  };
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
  components?: { type?: string; format?: string; text?: string }[];
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
        const body = await callCloudApi(url, options.token);
        for (const listed of (body.data ?? []) as ListedTemplate[]) {
          if (listed.name !== name) continue;
          const header = listed.components?.find((c) => c.type?.toUpperCase() === 'HEADER');
          const bodyText = listed.components?.find((c) => c.type?.toUpperCase() === 'BODY')?.text ?? '';
          found.push({
            name: listed.name,
            language: listed.language ?? '',
            status: (listed.status ?? 'UNKNOWN').toUpperCase(),
            ...(listed.rejected_reason && listed.rejected_reason !== 'NONE'
              ? { rejectedReason: listed.rejected_reason }
              : {}),
            ...(header?.format ? { headerFormat: header.format.toUpperCase() } : {}),
            bodyParameters: new Set([...bodyText.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1])).size,
          });
        }
        url = (body.paging as { next?: string } | undefined)?.next;
      }
      return found;
    },
  };
}

/** Without Cloud API settings: the message and its PDF are written to DATA_DIR/outbox, and say so. */
export function outboxSender(outboxDir: string): WhatsappSender {
  return {
    via: 'outbox',
    sendTemplate() {
      return Promise.reject(new Error('The outbox sends WhatsApp documents, not templates.'));
    },
    async sendDocument(message) {
      const id = `outbox-${newId()}`;
      await fs.mkdir(outboxDir, { recursive: true });
      await fs.writeFile(
        path.join(outboxDir, `${id}.whatsapp.json`),
        JSON.stringify({ to: message.to, caption: message.caption, filename: message.filename }, null, 2),
      );
      await fs.writeFile(path.join(outboxDir, `${id}.pdf`), message.pdf);
      return { messageId: id, via: 'outbox' };
    },
  };
}
