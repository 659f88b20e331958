import fs from 'node:fs/promises';
import path from 'node:path';
import { newId } from './ids.ts';
import { PermanentSendError, TransientSendError } from './send-errors.ts';

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

export interface WhatsappSender {
  sendDocument(message: WhatsappDocument): Promise<WhatsappReceipt>;
}

export interface CloudApiOptions {
  apiUrl: string;
  token: string;
  phoneNumberId: string;
  /** When set, a template message with the PDF as its header document; otherwise a document message. */
  templateName?: string;
  templateLanguage: string;
}

/**
 * The Meta WhatsApp Cloud API: the PDF is uploaded as media, then sent as a document message with
 * the WhatsApp template's text as caption (or as the header of an approved template message).
 * 429 and 5xx answers are worth retrying; other errors are final.
 */
export function cloudApiSender(options: CloudApiOptions): WhatsappSender {
  const base = `${options.apiUrl.replace(/\/$/, '')}/${options.phoneNumberId}`;
  const headers = { authorization: `Bearer ${options.token}` };

  async function call(url: string, init: RequestInit): Promise<Record<string, unknown>> {
    let res: Response;
    try {
      res = await fetch(url, {
        ...init,
        headers: { ...headers, ...init.headers },
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      throw new TransientSendError(`WhatsApp could not be reached: ${(err as Error).message}`);
    }
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (res.ok) return body;
    const detail = (body.error as { message?: string } | undefined)?.message ?? `HTTP ${res.status}`;
    if (res.status === 429 || res.status >= 500)
      throw new TransientSendError(`WhatsApp asked to try later: ${detail}`);
    throw new PermanentSendError(`WhatsApp refused the message: ${detail}`);
  }

  return {
    async sendDocument(message) {
      const form = new FormData();
      form.append('messaging_product', 'whatsapp');
      form.append('type', 'application/pdf');
      form.append('file', new Blob([message.pdf], { type: 'application/pdf' }), message.filename);
      const media = await call(`${base}/media`, { method: 'POST', body: form });
      const document = { id: String(media.id), filename: message.filename };
      const payload = options.templateName
        ? {
            messaging_product: 'whatsapp',
            to: message.to,
            type: 'template',
            ...(message.reference ? { biz_opaque_callback_data: message.reference } : {}),
            template: {
              name: options.templateName,
              language: { code: options.templateLanguage },
              components: [
                { type: 'header', parameters: [{ type: 'document', document }] },
                { type: 'body', parameters: [{ type: 'text', text: message.caption.slice(0, 1000) }] },
              ],
            },
          }
        : {
            messaging_product: 'whatsapp',
            to: message.to,
            type: 'document',
            ...(message.reference ? { biz_opaque_callback_data: message.reference } : {}),
            document: { ...document, caption: message.caption },
          };
      const sent = await call(`${base}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
      const id = (sent.messages as { id?: string }[] | undefined)?.[0]?.id;
      if (!id) throw new TransientSendError('WhatsApp answered without a message id.');
      return { messageId: id, via: 'cloud-api' };
    },
  };
}

/** Without Cloud API settings: the message and its PDF are written to DATA_DIR/outbox, and say so. */
export function outboxSender(outboxDir: string): WhatsappSender {
  return {
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
