import type { Channel } from '../../../db/schema.ts';
import type { ChannelAdapter } from './channel.ts';
import { emailChannel, type EmailChannelDeps } from './email.ts';
import { smsChannel, type SmsChannelDeps } from './sms.ts';
import { whatsappChannel, type WhatsappChannelDeps } from './whatsapp.ts';

export type { ChannelAdapter, OutgoingMessage, SendMessage, SendReceipt } from './channel.ts';

export type ChannelDeps = EmailChannelDeps & WhatsappChannelDeps & Partial<SmsChannelDeps>;

/**
 * Every channel the product sends on, by name. SMS is there when its provider (or its outbox) and its
 * DLT templates are given; a channel absent here refuses a send on it.
 */
export function channelAdapters(deps: ChannelDeps): Partial<Record<Channel, ChannelAdapter>> {
  return {
    email: emailChannel(deps),
    whatsapp: whatsappChannel(deps),
    ...(deps.sms && deps.smsTemplates
      ? { sms: smsChannel({ ...deps, sms: deps.sms, smsTemplates: deps.smsTemplates }) }
      : {}),
  };
}
