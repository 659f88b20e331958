import type { Database } from '../../../db/database.ts';
import type { RecordKind } from '../../../db/schema.ts';
import { PermanentJobError } from '../../../jobs/job-runner.ts';
import { PermanentSendError, toE164 } from '../../../lib/send-errors.ts';
import type { WhatsappSender } from '../../../lib/whatsapp.ts';
import { pdfFileName } from '../../pdfs/pdfs.service.ts';
import { defaultsOf, variantFor } from '../../templates/language-variants.ts';
import { mergeTemplate } from '../../templates/placeholders.ts';
import { whatsappTemplatesOf } from '../../templates/templates.repository.ts';
import type { ApprovedTemplatesService } from '../../whatsapp-approved/approved-templates.service.ts';
import type { ChannelAdapter, ChannelContext } from './channel.ts';
import { linkWords } from './link-words.ts';

export interface WhatsappChannelDeps extends ChannelContext {
  db: Database;
  whatsapp: WhatsappSender;
  /** The approved WhatsApp template each kind goes with (template mode), checked before a send claims. */
  approvedTemplates: ApprovedTemplatesService;
}

/**
 * WhatsApp: with the Cloud API, the kind's approved template with the PDF as its header document; in
 * session mode or to the outbox, the PDF as a document with the kind's WhatsApp text as its caption.
 */
export function whatsappChannel(deps: WhatsappChannelDeps): ChannelAdapter {
  return {
    channel: 'whatsapp',
    label: 'WhatsApp',
    addressName: 'mobile number',
    // WhatsApp's permanent refusals are as often about the template as the number: not remembered.
    remembersRefusals: false,
    addressOf: (row) => row.custMobileNo ?? '',
    // WhatsApp takes business-initiated messages only as approved templates: one not approved (or not
    // usable as mapped) refuses the whole send before anything is claimed.
    readyFor: async (kind) => {
      await deps.approvedTemplates.readyFor(kind);
    },
    async prepare(kind: RecordKind) {
      const variants = await whatsappTemplatesOf(deps.db, kind);
      const [whatsapp] = defaultsOf(variants);
      if (!whatsapp) throw new PermanentJobError(`There is no WhatsApp template for ${kind} records.`);
      // Each record's caption is its language's variant of the default, where there is one; its
      // `| words` say the amount in the variant's language.
      const captionFor = (row: Record<string, string>) => {
        const variant = variantFor(whatsapp, variants, row.language);
        return mergeTemplate(variant.value, row, 'text', deps.where, { language: variant.language });
      };
      const approved = await deps.approvedTemplates.mappingOf(kind);
      return async ({ delivery, row, pdf, code }) => {
        const filename = pdfFileName(delivery.record_kind, row);
        const to = toE164(delivery.recipient, deps.defaultCountryCode);
        const page = code && deps.pageUrl?.(code, 'w');
        if (approved === null && deps.whatsapp.via === 'cloud-api')
          throw new PermanentSendError('No approved WhatsApp template is set for these records.');
        if (approved && deps.whatsapp.via === 'cloud-api') {
          // The approved template: the PDF as its header document, the mapped fields as its body's parameters.
          const bodyParameters = approved.bodyFields.map((field, i) => {
            const value = (row[field] ?? '').replace(/\s+/g, ' ').trim();
            if (!value)
              throw new PermanentSendError(
                `The record's ${field} is empty; the WhatsApp template needs it for parameter {{${i + 1}}}.`,
              );
            return value;
          });
          // The notice page's link: the code (with the channel) as the URL button's suffix, and the whole
          // address as the body's spare last parameter, as the template has room for it (both when it has
          // both: Meta refuses a message with a body parameter left out).
          if (approved.linkInBody) bodyParameters.push(page || '-');
          const linkButton =
            code && approved.linkButtonIndex !== null
              ? { index: approved.linkButtonIndex, suffix: `${code}?c=w` }
              : undefined;
          const receipt = await deps.whatsapp.sendTemplate({
            to,
            pdf,
            filename,
            template: approved,
            bodyParameters,
            ...(linkButton && { linkButton }),
            reference: delivery.id,
          });
          return { status: 'sent', messageId: receipt.messageId, mediaId: receipt.mediaId };
        }
        const receipt = await deps.whatsapp.sendDocument({
          to,
          pdf,
          filename,
          caption: withCaptionLink(captionFor(row), page, row.language),
          reference: delivery.id,
        });
        return {
          status: receipt.via === 'outbox' ? 'outbox' : 'sent',
          messageId: receipt.messageId,
          mediaId: receipt.mediaId,
        };
      };
    },
  };
}

/** A WhatsApp caption with the notice page's link on a line of its own (WhatsApp's limit is 1024 characters). */
export function withCaptionLink(caption: string, url: string | undefined | '', language?: string): string {
  if (!url) return caption;
  const line = `${linkWords(language).caption} ${url}`;
  return `${caption.slice(0, 1024 - line.length - 2)}\n\n${line}`;
}
