import type { Database } from '../../db/database.ts';
import { nowIso } from '../../lib/time.ts';
import * as deliveries from '../sending/deliveries.repository.ts';
import * as undeliverable from './undeliverable.repository.ts';

/**
 * What became of one of our e-mails, from the bounce mailbox or a provider's webhook: it bounced, the
 * recipient complained, or the receiving mail server took it (delivered).
 */
export interface EmailEvent {
  kind: 'bounce' | 'complaint' | 'delivered';
  /** Our delivery id (the left-hand side of the Message-ID we sent). */
  deliveryId: string;
  /** The address the report is about, when it says; it must be the delivery's recipient. */
  recipient: string | undefined;
  reason: string;
  /** The report's identity ('imap:<its Message-ID>', 'ses:<feedback id>'): applied once. */
  eventKey: string;
  /** When it happened, by the provider's clock (ISO); now when the report does not say. */
  at?: string;
}

/** What a report did to its delivery. */
export type BounceOutcome = 'applied' | 'unchanged' | 'replayed' | 'unmatched' | 'mismatched';

/** A tally of events read, by what became of each (none yet), for a poll or a webhook call. */
export const noBounceOutcomes = () => ({
  applied: 0,
  unchanged: 0,
  replayed: 0,
  unmatched: 0,
  mismatched: 0,
  ignored: 0,
});

export interface BounceLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/**
 * Applies what providers report about e-mails. A delivery event moves the delivery to `delivered` at the
 * provider's time, forward only, once per event: one that comes after a bounce (or a read) is kept in
 * the trail as refused. Bounces: the delivery turns `bounced` with the mail server's reason (only from sent: statuses
 * move forward, and a bounced notice was not served), once per report, and its address is remembered
 * so the next send to it asks first. A complaint (the recipient marked it as spam) moves no status
 * (the notice was delivered) but its address is remembered too. A report for a delivery we do not have,
 * or naming another recipient than the delivery's, changes nothing and is logged.
 */
export class BouncesService {
  constructor(private readonly db: Database) {}

  async apply(event: EmailEvent, log: BounceLog): Promise<BounceOutcome> {
    const delivery = /^[0-9a-f-]{36}$/.test(event.deliveryId)
      ? await deliveries.findEmailDelivery(this.db, event.deliveryId)
      : undefined;
    if (!delivery) {
      log.warn(
        { deliveryId: event.deliveryId, event: event.eventKey },
        `${event.kind} for no delivery of ours: skipped`,
      );
      return 'unmatched';
    }
    if (
      event.recipient !== undefined &&
      undeliverable.addressKey('email', event.recipient) !==
        undeliverable.addressKey('email', delivery.recipient)
    ) {
      // A report naming another address than the one this delivery went to is not about it.
      log.warn(
        { deliveryId: delivery.id, event: event.eventKey },
        `${event.kind} names another recipient than its delivery's: skipped`,
      );
      return 'mismatched';
    }
    const at = event.at ?? nowIso();
    const remember = () =>
      undeliverable.remember(this.db, {
        owner_id: delivery.owner_id,
        channel: 'email',
        address: delivery.recipient,
        delivery_id: delivery.id,
        reason: event.reason,
        at,
      });
    if (event.kind === 'complaint') {
      await remember();
      log.info(
        { deliveryId: delivery.id, event: event.eventKey },
        'complaint recorded: the address is remembered',
      );
      return 'unchanged';
    }
    if (event.kind === 'delivered') {
      const outcome = await deliveries.recordProviderEvent(this.db, delivery, {
        status: 'delivered',
        at,
        eventKey: `delivered:${event.eventKey}`.slice(0, 300),
      });
      log.info({ deliveryId: delivery.id, event: event.eventKey, outcome }, 'delivery event applied');
      return outcome;
    }
    const outcome = await deliveries.recordProviderEvent(this.db, delivery, {
      status: 'bounced',
      at,
      eventKey: `bounced:${event.eventKey}`.slice(0, 300),
      error: event.reason,
    });
    if (outcome === 'applied') await remember();
    log.info({ deliveryId: delivery.id, event: event.eventKey, outcome }, 'bounce applied to its delivery');
    return outcome;
  }

  /** An address a send failed at for good (a permanent SMTP or WhatsApp refusal): remembered. */
  rememberFailure(
    delivery: Pick<deliveries.DeliveryRow, 'id' | 'owner_id' | 'channel' | 'recipient'>,
    reason: string,
  ): Promise<void> {
    return undeliverable.remember(this.db, {
      owner_id: delivery.owner_id,
      channel: delivery.channel,
      address: delivery.recipient,
      delivery_id: delivery.id,
      reason,
      at: nowIso(),
    });
  }
}
