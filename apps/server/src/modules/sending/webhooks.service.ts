import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Database } from '../../db/database.ts';
import { AppError, badRequest, forbidden } from '../../lib/errors.ts';
import { MEDIA_REUSE_MS } from '../../lib/whatsapp.ts';
import { MEDIA_UPLOAD_ERROR, whatsappErrorReason } from '../../lib/whatsapp-errors.ts';
import * as deliveries from './deliveries.repository.ts';
import { noteMediaFailure } from './media-failures.repository.ts';
import { deliveryStatusOf, readStatusUpdates, type StatusUpdate } from './whatsapp-status-body.ts';

/** How far ahead of our clock a provider's timestamp may be and still be believed. */
const CLOCK_SKEW_SECONDS = 5 * 60;

/** What a webhook did with its statuses, one count each (see the route's description). */
export interface WebhookOutcome {
  applied: number;
  unchanged: number;
  replayed: number;
  refused: number;
  unmatched: number;
  ignored: number;
}

/** Where the service writes why it skipped a status: the request's logger. */
export interface WebhookLog {
  warn(details: object, message: string): void;
}

export interface WhatsappWebhooksOptions {
  appSecret: string | undefined;
  verifyToken: string | undefined;
  /** Events older than this are refused. */
  maxAgeSeconds: number;
  now?: () => number;
}

/** WhatsApp Cloud API status webhooks: the verification handshake and signed status updates. */
export class WhatsappWebhooks {
  private readonly now: () => number;

  constructor(
    private readonly db: Database,
    private readonly options: WhatsappWebhooksOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** GET handshake: echo the challenge when the verify token matches. */
  verify(mode: string | undefined, token: string | undefined, challenge: string | undefined): string {
    const { verifyToken } = this.options;
    if (!verifyToken) throw new AppError(404, 'NOT_FOUND', 'WhatsApp webhooks are not configured.');
    if (mode !== 'subscribe' || !token || token !== verifyToken || !challenge)
      throw forbidden('The verify token does not match.');
    return challenge;
  }

  /**
   * POST: checks X-Hub-Signature-256 over the raw body, reads the whole body (a malformed one is refused
   * whole), then applies each status to its WhatsApp delivery, once, forward only. A status outside the
   * time window is skipped, counted and logged, so one stale status never makes Meta retry its batch;
   * a body whose every status is outside the window is refused.
   */
  async receive(
    rawBody: Buffer | undefined,
    signature: string | undefined,
    log: WebhookLog,
  ): Promise<WebhookOutcome> {
    const { appSecret } = this.options;
    if (!appSecret) throw new AppError(404, 'NOT_FOUND', 'WhatsApp webhooks are not configured.');
    const body = rawBody ?? Buffer.alloc(0);
    const expected = Buffer.from(`sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`);
    const given = Buffer.from(signature ?? '');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw new AppError(401, 'BAD_SIGNATURE', 'The webhook signature does not match.');
    }
    const updates = readStatusUpdates(body);
    if (typeof updates === 'string') throw badRequest(updates);

    const outcome: WebhookOutcome = {
      applied: 0,
      unchanged: 0,
      replayed: 0,
      refused: 0,
      unmatched: 0,
      ignored: 0,
    };
    const nowSeconds = Math.floor(this.now() / 1000);
    const window = { from: nowSeconds - this.options.maxAgeSeconds, to: nowSeconds + CLOCK_SKEW_SECONDS };
    let firstRefusal: string | undefined;
    for (const update of updates) {
      const status = deliveryStatusOf.get(update.status);
      if (!status) {
        outcome.ignored += 1;
        continue;
      }
      if (update.timestamp < window.from || update.timestamp > window.to) {
        outcome.refused += 1;
        const reason = update.timestamp < window.from ? 'older than WEBHOOK_MAX_AGE' : 'in the future';
        firstRefusal ??= `the first is '${update.status}' for ${update.id}`;
        log.warn(
          { providerMessageId: update.id, status: update.status, timestamp: update.timestamp, reason },
          'WhatsApp status outside the accepted window: skipped',
        );
        continue;
      }
      const delivery = await deliveries.findCloudApiDelivery(this.db, update.id);
      if (!delivery) {
        outcome.unmatched += 1;
        continue;
      }
      const result = await deliveries.recordProviderEvent(this.db, delivery, {
        status,
        at: isoOf(update.timestamp),
        eventKey: `${status}@${update.timestamp}`,
        ...(status === 'failed' ? { error: failureReason(update) } : {}),
      });
      outcome[result] += 1;
      // WhatsApp took the message, then could not use its document: its media id is not used again.
      // Noted on a replay too, in case the first delivery of this status was cut short.
      if (
        status === 'failed' &&
        delivery.media_id &&
        update.errors?.some((e) => e.code === MEDIA_UPLOAD_ERROR)
      )
        await noteMediaFailure(this.db, delivery.media_id, isoOf(update.timestamp), MEDIA_REUSE_MS);
    }
    if (outcome.refused > 0 && outcome.refused === updates.length) {
      throw new AppError(
        400,
        'WEBHOOK_OUTSIDE_WINDOW',
        `No status was applied: each one is older than WEBHOOK_MAX_AGE (${durationText(this.options.maxAgeSeconds)}) or dated in the future; ${firstRefusal}.`,
      );
    }
    return outcome;
  }
}

/** 604800 as '7d', 5400 as '90m': the setting's own grammar. */
function durationText(seconds: number): string {
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3600],
    ['m', 60],
  ] as const)
    if (seconds % size === 0) return `${seconds / size}${unit}`;
  return `${seconds}s`;
}

const isoOf = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();

/**
 * The reason a failed status gives, as people read it, with the codes people meet most in the product's
 * words: '(#131047) WhatsApp refuses a message outside the 24-hour window; use an approved template (…)'.
 */
function failureReason(update: StatusUpdate): string {
  const reasons = (update.errors ?? [])
    .filter((e) => e.code !== undefined || e.title || e.message || e.error_data?.details)
    .map(whatsappErrorReason);
  return reasons.length > 0
    ? `WhatsApp could not deliver the message: ${reasons.join('; ')}`
    : 'WhatsApp could not deliver the message.';
}
