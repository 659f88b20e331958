import type {
  EvidenceNoticePageEvent,
  EvidenceNoticeResponse,
  EvidenceRecord,
} from '@notice-desk/contract/evidence';
import { shownParts } from '../../lib/time.ts';

/** 'on 12-05-2024 at 10:41:07 IST': an instant in TIME_ZONE, as a sentence says it. */
export function onAt(iso: string, timeZone: string): string {
  const shown = shownParts(iso, timeZone);
  return shown ? `on ${shown.day} at ${shown.time} ${shown.zone}` : `at ${iso}`;
}

const channelWords: Record<string, string> = {
  email: 'the e-mail',
  whatsapp: 'the WhatsApp message',
  sms: 'the SMS',
  post: 'the letter',
};

/**
 * What a notice page event says in a sentence for the summary. `asks` is the number whose last four
 * digits the page asked; `pdfSha256` the served PDF's hash, unless the event names its own.
 */
export function pageEventWords(
  event: EvidenceNoticePageEvent,
  { asks, pdfSha256, timeZone }: { asks: 'mobile' | 'account'; pdfSha256: string | null; timeZone: string },
): string {
  const when = onAt(event.at, timeZone);
  const by =
    event.channel && channelWords[event.channel] ? ` by the link in ${channelWords[event.channel]}` : '';
  const digits = asks === 'mobile' ? "the mobile number's" : "the loan or account number's";
  const sha = /\b[0-9a-f]{64}\b/.exec(event.detail ?? '')?.[0] ?? pdfSha256;
  switch (event.event) {
    case 'link_opened':
      return `Opened the notice page${by} ${when}.`;
    case 'check_failed':
      return `Gave a wrong answer to the check ${when} (the answer is not kept).`;
    case 'locked':
      return `The link was locked after five wrong answers ${when}.`;
    case 'verified':
      return `Opened the notice ${when} after confirming ${digits} last four digits${by}.`;
    case 'pdf_viewed':
      return `Downloaded the PDF${sha ? ` (SHA-256 ${sha})` : ''} ${when}.`;
    case 'acknowledged':
      return `Acknowledged receiving the notice ${when}.`;
    case 'disputed':
      return `Disputed the notice ${when}.`;
    case 'settle_requested':
      return `Asked to settle or pay ${when}.`;
    case 'callback_requested':
      return `Asked for a call back ${when}.`;
    case 'payment_link_opened':
      return `Opened the UPI payment link ${when}.`;
    default:
      return `${event.event} ${when}.`;
  }
}

const responseKinds: Record<string, string> = {
  dispute: 'Dispute',
  settle: 'Request to settle or pay',
  callback: 'Call-back request',
};

/** A borrower's answer, in a line: its kind, time, text and file (the text is shown as text). */
export function responseWords(response: EvidenceNoticeResponse, timeZone: string): string {
  const file = response.file
    ? ` File: ${response.file.name ?? 'unnamed'} (SHA-256 ${response.file.sha256 ?? 'unknown'}).`
    : '';
  const handled = response.handled ? ` Handled ${onAt(response.handled.at, timeZone)}.` : '';
  return `${responseKinds[response.kind] ?? response.kind} ${onAt(response.at, timeZone)}: "${response.text}".${file}${handled}`;
}

/** Served on and respond by in a sentence. */
export function serviceWords(service: EvidenceRecord['service'], timeZone: string): string {
  if (!service.servedOn)
    return 'Not served yet: no delivery, read or acknowledgement, and no deemed date has come.';
  const served = `Served ${onAt(service.servedOn, timeZone)} (${service.servedBy}).`;
  if (!service.respondBy) return `${served} No legal basis is set, so no respond-by date.`;
  return `${served} Respond by ${service.shown.respondBy} (${service.legalBasis}: ${service.periodDays} days from service).`;
}
