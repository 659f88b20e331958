import { createHash, timingSafeEqual } from 'node:crypto';
import type { Database } from '../../db/database.ts';
import type { DeliveryStatus } from '../../db/schema.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import * as deliveries from './deliveries.repository.ts';

/** What a delivery report did with its reports, one count each. */
export interface SmsWebhookOutcome {
  applied: number;
  unchanged: number;
  replayed: number;
  unmatched: number;
  ignored: number;
}

/**
 * MSG91's delivery report statuses (its webhook help page): 1 delivered; 2 failed, 9 NDNC, 16 and 25
 * rejected, 17 blocked number. Any other (submitted, sent to the operator) moves nothing.
 */
const statusOf = new Map<string, DeliveryStatus>([
  ['1', 'delivered'],
  ['2', 'failed'],
  ['9', 'failed'],
  ['16', 'failed'],
  ['17', 'failed'],
  ['25', 'failed'],
]);
const statusWords: Record<string, string> = {
  '2': 'failed',
  '9': 'the number is on the National Do Not Call registry',
  '16': 'rejected',
  '17': 'the number is blocked',
  '25': 'rejected',
};

/** One report as MSG91's webhook (version 3, JSON) sends it. */
interface Msg91Report {
  requestId: string;
  status: string;
  date: string;
  desc?: string;
  failedReason?: string;
}

/** MSG91 dates its reports in India's time, without a zone: '2024-05-22 09:58:16'. */
function isoOfIst(date: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(date.trim());
  if (!m) return null;
  const at = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}+05:30`);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

const text = (value: unknown, name: string, max: number): string | string[] => {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string' || value.length === 0) return [`${name} must be text`];
  if (value.length > max) return [`${name} must be at most ${max} characters`];
  return value;
};

/** The whole body read as reports, or a sentence saying what is wrong with it (nothing is applied). */
export function readMsg91Reports(body: unknown): Msg91Report[] | string {
  const list = Array.isArray(body) ? body : [body];
  if (list.length === 0) return 'The body holds no delivery report.';
  if (list.length > 1000) return 'A body holds at most 1000 delivery reports.';
  const reports: Msg91Report[] = [];
  for (const [i, item] of list.entries()) {
    const where = list.length > 1 ? `report ${i + 1}: ` : '';
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      return `${where}a delivery report is a JSON object with requestId, status and date.`;
    const r = item as Record<string, unknown>;
    const requestId = text(r.requestId, 'requestId', 100);
    const status = text(r.status, 'status', 10);
    const date = text(r.date, 'date', 40);
    for (const field of [requestId, status, date]) if (Array.isArray(field)) return `${where}${field[0]}.`;
    if (isoOfIst(date as string) === null)
      return `${where}date must be 'YYYY-MM-DD HH:mm:ss' (India's time), as MSG91 sends it.`;
    reports.push({
      requestId: requestId as string,
      status: status as string,
      date: date as string,
      ...(typeof r.desc === 'string' && { desc: r.desc.slice(0, 200) }),
      ...(typeof r.failedReason === 'string' && { failedReason: r.failedReason.slice(0, 200) }),
    });
  }
  return reports;
}

/**
 * MSG91's SMS delivery reports. MSG91 signs nothing: the webhook URL set in its panel carries
 * SMS_WEBHOOK_TOKEN (`?token=`), compared in constant time; a wrong or missing one is refused (401).
 * Each report moves its SMS delivery (found by MSG91's request id) forward only, once.
 */
export class SmsWebhooks {
  constructor(
    private readonly db: Database,
    private readonly options: { token: string | undefined },
  ) {}

  async receive(token: string | undefined, body: unknown): Promise<SmsWebhookOutcome> {
    const expected = this.options.token;
    if (!expected) throw new AppError(404, 'NOT_FOUND', 'SMS delivery reports are not configured.');
    // Hashed first, so the comparison takes the same time whatever the length given.
    const digest = (value: string) => createHash('sha256').update(value).digest();
    if (!token || !timingSafeEqual(digest(token), digest(expected)))
      throw new AppError(401, 'BAD_TOKEN', 'The delivery report token does not match.');
    const reports = readMsg91Reports(body);
    if (typeof reports === 'string') throw badRequest(reports);
    const outcome: SmsWebhookOutcome = { applied: 0, unchanged: 0, replayed: 0, unmatched: 0, ignored: 0 };
    for (const report of reports) {
      const status = statusOf.get(report.status);
      if (!status) {
        outcome.ignored += 1;
        continue;
      }
      const delivery = await deliveries.findProviderDelivery(this.db, 'sms', report.requestId);
      if (!delivery) {
        outcome.unmatched += 1;
        continue;
      }
      const reason = report.failedReason || report.desc || statusWords[report.status];
      const result = await deliveries.recordProviderEvent(this.db, delivery, {
        status,
        at: isoOfIst(report.date)!,
        eventKey: `${status}@${report.date}`,
        ...(status === 'failed' && {
          error: `The SMS was not delivered (MSG91 status ${report.status}${reason ? `: ${reason}` : ''}).`,
        }),
      });
      outcome[result] += 1;
    }
    return outcome;
  }
}
