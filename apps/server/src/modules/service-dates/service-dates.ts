import type { DeliveryChannel } from '@notice-desk/contract/sending';
import type { ServiceDates } from '@notice-desk/contract/service-dates';
import type { DeliveryStatus } from '../../db/schema.ts';
import { wallClockMs } from '../../lib/time.ts';

/** A delivery event as the trail keeps it, with its delivery and that delivery's channel. */
export interface DeliveryFact {
  /** Its delivery: a letter returned (a bounced event on a post delivery) is told by it. */
  delivery_id: string;
  /** Post included: its deliveries are rows like the others' (modules/post). */
  channel: DeliveryChannel;
  status: DeliveryStatus;
  at: string;
  /** Why the event did not move the status (deliveries.repository.ts refusalOf), or null. */
  refused: string | null;
}

/** A notice page event of the record. */
export interface PageFact {
  event: string;
  at: string;
}

export interface ServiceRules {
  /** The legal basis's response period; null when none is set (no respond-by date). */
  periodDays: number | null;
  /** DEEMED_SERVICE_DAYS: deemed served this many days after the first electronic dispatch; 0: never. */
  deemedServiceDays: number;
  /**
   * POST_DEEMED_SERVICE_DAYS: deemed served this many days after the first booking of a letter that was
   * not returned (no AD card, no return); 0: never deemed by post.
   */
  postDeemedServiceDays: number;
  timeZone: string;
  /** ISO: a deemed date still to come has not served the record yet. */
  now: string;
}

/**
 * A refused event that is still a fact: it came after a later status (a read before its delivered),
 * so the status did not move back, but the message did reach the person then. Its refusal starts so.
 */
export const OUT_OF_ORDER_REFUSAL = 'not applied: the delivery was already';

/** Events that mean the person received the notice: the first of them serves it. */
export const RECEIPT_STATUSES: readonly DeliveryStatus[] = ['delivered', 'read'];
export const RECEIPT_PAGE_EVENTS = ['verified', 'acknowledged'] as const;
/** Events that mean a provider took the message: the first of them starts the deemed-service clock. */
export const DISPATCH_STATUSES: readonly DeliveryStatus[] = ['sent', 'delivered', 'read'];
/** A post delivery's return (returned letters are not deemed served: a person reads the reason). */
export const RETURN_STATUS: DeliveryStatus = 'bounced';

const DAY_MS = 86_400_000;

const counts = (fact: DeliveryFact) => fact.refused === null || fact.refused.startsWith(OUT_OF_ORDER_REFUSAL);

/**
 * When a record was served, by what, and when its response period runs out (docs/sending.md, "Dates
 * that follow from service"):
 * - actual receipt is the earliest delivered or read on any channel, or the notice page's verified or
 *   acknowledged;
 * - deemed service is `deemedServiceDays` after the first electronic dispatch (sent, delivered or
 *   read), or `postDeemedServiceDays` after the first booking of a letter not returned, whichever
 *   comes first (General Clauses Act s.27 for post: docs/sending.md);
 * - actual receipt on or before the deemed date sets the date; otherwise the deemed date does, once it
 *   has come (a receipt after it does not move it: the record was already served);
 * - the period counts whole days in TIME_ZONE from the day after service (General Clauses Act s.9:
 *   the first day is left out), so a notice served on 01-01 under NI Act s.138 is answered by 16-01.
 */
export function serviceDates(
  facts: { deliveries: readonly DeliveryFact[]; page: readonly PageFact[] },
  rules: ServiceRules,
): ServiceDates {
  let receipt: { at: string; by: string } | null = null;
  let dispatch: string | null = null;
  let posted: string | null = null;
  const earlier = (at: string, than: string | null) => than === null || Date.parse(at) < Date.parse(than);
  const returned = new Set(
    facts.deliveries
      .filter((fact) => fact.channel === 'post' && fact.status === RETURN_STATUS && counts(fact))
      .map((fact) => fact.delivery_id),
  );
  for (const fact of facts.deliveries) {
    if (!counts(fact)) continue;
    if (DISPATCH_STATUSES.includes(fact.status)) {
      if (fact.channel !== 'post') {
        if (earlier(fact.at, dispatch)) dispatch = fact.at;
      } else if (!returned.has(fact.delivery_id) && earlier(fact.at, posted)) posted = fact.at;
    }
    if (RECEIPT_STATUSES.includes(fact.status) && earlier(fact.at, receipt?.at ?? null))
      receipt = { at: fact.at, by: `${fact.channel}: ${fact.status}` };
  }
  for (const fact of facts.page)
    if (
      (RECEIPT_PAGE_EVENTS as readonly string[]).includes(fact.event) &&
      earlier(fact.at, receipt?.at ?? null)
    )
      receipt = { at: fact.at, by: `notice page: ${fact.event}` };

  const deemedAfter = (from: string | null, days: number, by: string) =>
    from !== null && days > 0
      ? {
          at: new Date(Date.parse(from) + days * DAY_MS).toISOString(),
          by: `deemed (${days} days after ${by})`,
        }
      : null;
  const electronic = deemedAfter(dispatch, rules.deemedServiceDays, 'dispatch');
  const byPost = deemedAfter(posted, rules.postDeemedServiceDays, 'booking by post');
  const deemed =
    electronic && (!byPost || Date.parse(electronic.at) <= Date.parse(byPost.at)) ? electronic : byPost;
  let served: { at: string; by: string } | null = null;
  if (receipt && (deemed === null || Date.parse(receipt.at) <= Date.parse(deemed.at))) served = receipt;
  else if (deemed !== null && Date.parse(deemed.at) <= Date.parse(rules.now)) served = deemed;
  if (!served)
    return { servedOn: null, servedBy: null, respondBy: null, shown: { servedOn: null, respondBy: null } };

  const servedDay = dayIn(served.at, rules.timeZone);
  const respondBy = rules.periodDays === null ? null : addDays(servedDay, rules.periodDays);
  return {
    servedOn: new Date(Date.parse(served.at)).toISOString(),
    servedBy: served.by,
    respondBy,
    shown: { servedOn: ddmmyyyy(servedDay), respondBy: respondBy && ddmmyyyy(respondBy) },
  };
}

/** The calendar day (YYYY-MM-DD) an instant falls on in a time zone. */
export function dayIn(instant: string, timeZone: string): string {
  return new Date(wallClockMs(Date.parse(instant), timeZone)).toISOString().slice(0, 10);
}

/** A calendar day plus whole days (month ends and 29 February as the calendar has them). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** YYYY-MM-DD as people read it: DD-MM-YYYY. */
export const ddmmyyyy = (day: string): string => `${day.slice(8, 10)}-${day.slice(5, 7)}-${day.slice(0, 4)}`;
