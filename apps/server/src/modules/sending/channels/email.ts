import type { RecordKind } from '../../../db/schema.ts';
import { escapeHtml } from '../../../lib/escape-html.ts';
import type { Mailer } from '../../../lib/mailer.ts';
import { checkEmail, classifySmtpError } from '../../../lib/send-errors.ts';
import type { Database } from '../../../db/database.ts';
import { pdfFileName } from '../../pdfs/pdfs.service.ts';
import { mergeTemplate } from '../../templates/placeholders.ts';
import { findEmailTemplatesByKeys } from '../../templates/templates.repository.ts';
import type { ChannelAdapter, ChannelContext } from './channel.ts';
import { linkWords } from './link-words.ts';

export interface EmailChannelDeps extends ChannelContext {
  db: Database;
  mailer: Mailer;
  /** The right-hand side of each e-mail's Message-ID (the app's host name). */
  messageIdDomain: string;
  /** BOUNCE_RETURN_PATH_DOMAIN: each e-mail's envelope sender is bounce+<delivery id>@ this (VERP). */
  returnPathDomain?: string | undefined;
}

/** E-mail: the notice PDF attached to the kind's e-mail template, by SMTP or to the outbox. */
export function emailChannel(deps: EmailChannelDeps): ChannelAdapter {
  return {
    channel: 'email',
    label: 'e-mail',
    addressName: 'e-mail address',
    // A mail server refused it for good (no such mailbox, an invalid address): remembered.
    remembersRefusals: true,
    addressOf: (row) => row.emailId ?? '',
    readyFor: () => Promise.resolve(),
    async prepare(kind: RecordKind) {
      const keys = [`email-subject-${kind}`, `email-body-${kind}`];
      const mail = await findEmailTemplatesByKeys(deps.db, keys);
      const find = (key: string) => mail.find((t) => t.key === key)?.html ?? '';
      const subject = find(keys[0]!);
      const body = find(keys[1]!);
      return async ({ delivery, row, pdf, code }) => {
        const to = checkEmail(delivery.recipient);
        try {
          const receipt = await deps.mailer.send({
            messageId: `<${delivery.id}@${deps.messageIdDomain}>`,
            to,
            subject: mergeTemplate(subject, row, 'text', deps.where)
              .replace(/[\r\n]+/g, ' ')
              .slice(0, 250),
            // The mailer reads the text part out of the HTML.
            html: withPageLink(
              mergeTemplate(body, row, 'html', deps.where),
              code && deps.pageUrl?.(code, 'e'),
              row.language,
            ),
            attachments: [
              {
                filename: pdfFileName(delivery.record_kind, row),
                content: pdf,
                contentType: 'application/pdf',
              },
            ],
            // Postmark rewrites the Message-ID: its webhook events name the delivery by this metadata.
            headers: { 'X-PM-Metadata-delivery': delivery.id },
            // A DSN goes to the envelope sender: with our own VERP address, the bounce names its delivery
            // even when a relay rewrote the Message-ID and the DSN quotes none of our headers.
            ...(deps.returnPathDomain && {
              returnPath: `bounce+${delivery.id}@${deps.returnPathDomain}`,
            }),
          });
          return { status: receipt.via === 'outbox' ? 'outbox' : 'sent', messageId: receipt.messageId };
        } catch (err) {
          throw classifySmtpError(err);
        }
      };
    },
  };
}

/**
 * The e-mail body with the notice page's link after it: a line of text and a link styled as a button
 * (inline styles: mail clients drop style sheets). Inside the body element when the template has one.
 */
export function withPageLink(html: string, url: string | undefined | '', language?: string): string {
  if (!url) return html;
  const href = escapeHtml(url);
  const words = linkWords(language);
  const block =
    `<p style="margin:24px 0 8px">${words.line} ${href}</p>` +
    `<p style="margin:0 0 24px"><a href="${href}" style="display:inline-block;padding:10px 18px;background:#1d4ed8;color:#ffffff;text-decoration:none;border-radius:4px;font-weight:600">${words.button}</a></p>`;
  const end = html.search(/<\/body\s*>/i);
  return end === -1 ? html + block : html.slice(0, end) + block + html.slice(end);
}
