import { randomUUID } from 'node:crypto';
import { compile } from 'html-to-text';
import nodemailer, { type Transporter } from 'nodemailer';
import type { FileStore } from './storage.ts';

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType?: string;
}

/** One recipient given as an object: nodemailer takes it as it is, without parsing it as an address list. */
export interface MailAddress {
  name: string;
  address: string;
}

interface MailEnvelope {
  /** '<id@host>': set it to one value per message, so a message sent twice can be known as one. */
  messageId?: string;
  to: string | MailAddress;
  subject: string;
  attachments?: MailAttachment[];
  /** Extra header fields (a provider's metadata, such as Postmark's X-PM-Metadata-*). */
  headers?: Record<string, string>;
  /** The envelope sender (MAIL FROM, where bounces go), when it is not the From address: a VERP address. */
  returnPath?: string;
}

/** Plain text, or HTML whose text part the mailer reads out of it (see `textOf`). */
export type MailMessage = MailEnvelope & ({ text: string; html?: string } | { html: string; text?: never });

export interface MailReceipt {
  messageId: string;
  /** 'smtp' when an SMTP server accepted it, 'outbox' when it was written to DATA_DIR/outbox. */
  via: 'smtp' | 'outbox';
}

export interface Mailer {
  send(message: MailMessage): Promise<MailReceipt>;
  close(): void;
}

/** SMTP (pooled) when a URL is configured; otherwise .eml files in the outbox folder, never a fake delivery. */
export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  /** Where .eml files go without SMTP: the 'outbox' folder of this store. */
  store: FileStore;
}): Mailer {
  if (options.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(options.smtpUrl + poolQuery(options.smtpUrl), {
      from: options.from,
    });
    return {
      async send({ returnPath, ...message }) {
        const envelope = returnPath ? { envelope: { from: returnPath, to: message.to } } : {};
        const info = await transport.sendMail({ from: options.from, ...withText(message), ...envelope });
        return { messageId: info.messageId, via: 'smtp' };
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    // A file has no envelope: the return path goes nowhere.
    async send({ returnPath: _returnPath, ...message }) {
      const info = await transport.sendMail({ from: options.from, ...withText(message) });
      const key = `outbox/${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;
      await options.store.writeBuffer(key, info.message as Buffer);
      return { messageId: info.messageId, via: 'outbox' };
    },
    close: () => transport.close(),
  };
}

/**
 * The text part of an HTML mail as a reader of plain text should see it: entities decoded (`&amp;` is
 * `&`, `&nbsp;` a no-break space), paragraphs and line breaks kept, links written out, images and
 * styles left out (an inline logo would otherwise print as its data URL).
 */
const textOf = compile({
  selectors: [
    { selector: 'img', format: 'skip' },
    { selector: 'style', format: 'skip' },
    { selector: 'script', format: 'skip' },
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
  ],
});

const withText = <T extends { text?: string; html?: string }>(message: T): T & { text: string } => ({
  ...message,
  text: message.text ?? textOf(message.html ?? ''),
});

/** Pooled connections (10 at a time) unless the URL says otherwise. */
function poolQuery(url: string): string {
  return /[?&]pool=/.test(url) ? '' : `${url.includes('?') ? '&' : '?'}pool=true&maxConnections=10`;
}
