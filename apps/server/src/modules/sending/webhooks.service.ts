import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Database } from '../../db/database.ts';
import type { DeliveryStatus } from '../../db/schema.ts';
import { AppError, forbidden } from '../../lib/errors.ts';
import * as deliveries from './deliveries.repository.ts';

interface StatusUpdate {
  id?: string;
  status?: string;
  timestamp?: string;
  errors?: { title?: string; message?: string; code?: number }[];
}

const statusOf: Record<string, DeliveryStatus> = {
  sent: 'sent',
  delivered: 'delivered',
  read: 'read',
  failed: 'failed',
};

/** WhatsApp Cloud API status webhooks: the verification handshake and signed status updates. */
export class WhatsappWebhooks {
  constructor(
    private readonly db: Database,
    private readonly appSecret: string | undefined,
    private readonly verifyToken: string | undefined,
  ) {}

  /** GET handshake: echo the challenge when the verify token matches. */
  verify(mode: string | undefined, token: string | undefined, challenge: string | undefined): string {
    if (!this.verifyToken) throw new AppError(404, 'NOT_FOUND', 'WhatsApp webhooks are not configured.');
    if (mode !== 'subscribe' || !token || token !== this.verifyToken || !challenge)
      throw forbidden('The verify token does not match.');
    return challenge;
  }

  /** POST: checks X-Hub-Signature-256 over the raw body, then applies each status, forward only. */
  async receive(rawBody: Buffer, signature: string | undefined): Promise<{ applied: number }> {
    if (!this.appSecret) throw new AppError(404, 'NOT_FOUND', 'WhatsApp webhooks are not configured.');
    const expected = Buffer.from(
      `sha256=${createHmac('sha256', this.appSecret).update(rawBody).digest('hex')}`,
    );
    const given = Buffer.from(signature ?? '');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw new AppError(401, 'BAD_SIGNATURE', 'The webhook signature does not match.');
    }
    let payload: { entry?: { changes?: { value?: { statuses?: StatusUpdate[] } }[] }[] };
    try {
      payload = JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw new AppError(400, 'BAD_REQUEST', 'The webhook body is not valid JSON.');
    }
    let applied = 0;
    for (const entry of payload.entry ?? []) {
      for (const change of entry.changes ?? []) {
        for (const update of change.value?.statuses ?? []) {
          const status = statusOf[update.status ?? ''];
          if (!update.id || !status) continue;
          const delivery = await deliveries.findByProviderId(this.db, update.id);
          if (!delivery) continue;
          const at = update.timestamp
            ? new Date(Number(update.timestamp) * 1000).toISOString()
            : new Date().toISOString();
          const error =
            status === 'failed'
              ? update.errors?.map((e) => e.message ?? e.title).join('; ') ||
                'WhatsApp could not deliver the message.'
              : undefined;
          if (await deliveries.advanceStatus(this.db, delivery, status, at, error ? { error } : {}))
            applied += 1;
        }
      }
    }
    return { applied };
  }
}
