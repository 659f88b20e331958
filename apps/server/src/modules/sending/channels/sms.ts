import type { RecordKind } from '../../../db/schema.ts';
import { PermanentJobError } from '../../../jobs/job-runner.ts';
import { PermanentSendError, toE164 } from '../../../lib/send-errors.ts';
import type { SmsSender } from '../../../lib/sms.ts';
import type { SmsTemplatesService } from '../../sms-templates/sms-templates.service.ts';
import type { ChannelAdapter, ChannelContext } from './channel.ts';

export interface SmsChannelDeps extends ChannelContext {
  sms: SmsSender;
  /** The DLT template per kind, checked before a send claims and again for every SMS. */
  smsTemplates: SmsTemplatesService;
}

/**
 * SMS on the kind's DLT template (issue 31): the registered text with each slot filled from the record
 * (at most 30 characters a slot), carrying the notice page's link (`?c=s`), by MSG91 or to the outbox.
 * The PDF does not travel: the page it links to shows it. A text that no longer matches its registered
 * template, or a slot too long, fails that SMS for good with why (an operator would drop it silently).
 */
export function smsChannel(deps: SmsChannelDeps): ChannelAdapter {
  return {
    channel: 'sms',
    label: 'SMS',
    addressName: 'mobile number',
    // An SMS refusal is as often about the template as the number: not remembered.
    remembersRefusals: false,
    addressOf: (row) => row.custMobileNo ?? '',
    readyFor: (kind) => deps.smsTemplates.readyFor(kind),
    async prepare(kind: RecordKind) {
      const render = await deps.smsTemplates.renderer(kind);
      if (!render) throw new PermanentJobError(`There is no DLT template for ${kind} SMS.`);
      return async ({ delivery, row, code }) => {
        const to = toE164(delivery.recipient, deps.defaultCountryCode);
        const link = code && deps.pageUrl ? { url: deps.pageUrl(code, 's'), code } : undefined;
        const sms = render(row, link);
        if ('refused' in sms) throw new PermanentSendError(sms.refused);
        const receipt = await deps.sms.send({
          to,
          text: sms.text,
          dltTemplateId: sms.dltTemplateId,
          unicode: sms.unicode,
          reference: delivery.id,
        });
        return { status: receipt.via === 'outbox' ? 'outbox' : 'sent', messageId: receipt.messageId };
      };
    },
  };
}
