import type { Channel, DeliveryStatus, RecordKind } from '../../../db/schema.ts';
import type { DocumentLocale } from '../../../lib/indian-format.ts';
import type { DeliveriesTable } from '../../../db/schema.ts';

/**
 * One shape for every channel (issue 31): the service claims, rates, retries and records; an adapter
 * knows its channel's address, its message and its provider. A new channel is a new file beside
 * email.ts, whatsapp.ts and sms.ts, listed in index.ts: not a new branch in the service.
 *
 * Provider errors: an adapter's send throws PermanentSendError (recorded as failed) or
 * TransientSendError (retried with backoff, at the provider's Retry-After when it gave one), both from
 * lib/send-errors.ts; anything else is taken as transient. Status events (delivered, read, failed)
 * arrive by each provider's webhook and move a delivery forward only (deliveries.recordProviderEvent).
 * Rate: every message takes a token of its channel's bucket first (modules/limits/send-rates.ts).
 */
export interface ChannelAdapter {
  readonly channel: Channel;
  /** The channel's name in a sentence: 'e-mail', 'WhatsApp', 'SMS'. */
  readonly label: string;
  /** What the record's address is called on this channel: 'e-mail address', 'mobile number'. */
  readonly addressName: string;
  /** Whether a permanent refusal marks the address undeliverable for later sends (BOUNCED_ADDRESSES). */
  readonly remembersRefusals: boolean;
  /** Where a record says this channel's message goes. */
  addressOf(row: Record<string, string | undefined>): string;
  /** Refuses (an AppError) a send on this channel before anything is claimed, when it could not go. */
  readyFor(kind: RecordKind): Promise<void>;
  /**
   * What a send job needs once for its records of a kind (templates), as a function that sends one
   * message. A template missing for good throws PermanentJobError.
   */
  prepare(kind: RecordKind): Promise<SendMessage>;
}

/** Sends one message; throws PermanentSendError or TransientSendError as the provider answered. */
export type SendMessage = (message: OutgoingMessage) => Promise<SendReceipt>;

/** One record's message on one channel. */
export interface OutgoingMessage {
  /** The delivery it is (its recipient is where it goes: the address recorded when the send was asked). */
  delivery: Pick<DeliveriesTable, 'id' | 'record_kind' | 'recipient' | 'channel'>;
  row: Record<string, string>;
  /** The rendered notice. */
  pdf: Buffer;
  /** The record's notice page code, when notice pages are on: the message links to its page. */
  code?: string | undefined;
}

export interface SendReceipt {
  status: Extract<DeliveryStatus, 'sent' | 'outbox'>;
  messageId: string;
  mediaId?: string | undefined;
}

/** What the adapters share: the notice page's address per channel, and how placeholders are formatted. */
export interface ChannelContext {
  pageUrl?: ((code: string, channel: 'e' | 'w' | 's') => string) | undefined;
  where?: DocumentLocale | undefined;
  defaultCountryCode: string;
}
