import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';

/** What a message in the bounce mailbox says, read as far as it can be. */
export type BounceReport =
  | {
      kind: 'bounce';
      /** The deliveries it names: the ids in our Message-IDs (or a VERP address) it carries. */
      deliveryIds: string[];
      /** The address that failed (Final-Recipient or Original-Recipient), when it says. */
      recipient: string | undefined;
      /** The reason as people read it: the status code and the mail server's own words. */
      reason: string;
      /** The DSN's own Message-ID, to record it once. */
      reportId: string;
    }
  /** A delay warning, a delivery or read report, or any other mail: nothing to apply. */
  | { kind: 'not-a-bounce'; why: string }
  | { kind: 'unreadable'; why: string };

/** Most bytes of a message read; a DSN with its returned headers is a few kilobytes. */
export const MAX_REPORT_BYTES = 2 * 1024 * 1024;
const MAX_REASON = 500;

/** Subjects and senders of the bounces that are not RFC 3464 reports (older MTAs, some providers). */
const BOUNCE_SUBJECT =
  /undeliver|undelivered|delivery (status notification \(failure\)|has failed|failure)|returned mail|failure notice|mail delivery failed|could not be delivered|non.?delivery/i;
const DAEMON_SENDER = /^(mailer-daemon|postmaster)@/i;

/**
 * Reads a bounce: an RFC 3464 report (multipart/report; report-type=delivery-status) or one of the
 * usual non-standard notices (a mailer-daemon's text quoting the returned headers). The delivery is
 * found by our Message-ID, `<delivery id@messageIdDomain>`, in the returned headers, an
 * Original-Message-ID field, In-Reply-To or References, else in the notice's text; or by a VERP
 * address (`bounce+<delivery id>@` the return path domain, or messageIdDomain) it was sent back to.
 */
export async function readBounce(
  source: Buffer,
  messageIdDomain: string,
  returnPathDomain?: string,
): Promise<BounceReport> {
  if (source.length > MAX_REPORT_BYTES)
    return { kind: 'unreadable', why: `larger than ${MAX_REPORT_BYTES} bytes` };
  let mail: ParsedMail;
  try {
    mail = await simpleParser(source, { skipImageLinks: true, skipTextToHtml: true });
  } catch (err) {
    return { kind: 'unreadable', why: `not a readable message: ${(err as Error).message}` };
  }
  const contentType = mail.headers.get('content-type') as { value?: string; params?: Record<string, string> };
  const isReport =
    contentType?.value?.toLowerCase() === 'multipart/report' &&
    /delivery-status/i.test(contentType.params?.['report-type'] ?? '');
  // mailparser reads a message/delivery-status part into the text, or keeps it as an attachment.
  const statusText = [
    mail.text ?? '',
    ...mail.attachments
      .filter((a) => /^message\/(global-)?delivery-status$/i.test(a.contentType))
      .map((a) => a.content.toString('utf8')),
  ].join('\n');
  const fields = readFields(statusText);
  const actions = fields.get('action') ?? [];
  const from = addressesOf(mail.from)[0] ?? '';
  if (isReport || actions.length > 0) {
    if (!actions.some((action) => action.toLowerCase() === 'failed'))
      return {
        kind: 'not-a-bounce',
        why: `a delivery report whose action is ${actions.join(', ') || 'missing'}, not failed`,
      };
  } else if (!BOUNCE_SUBJECT.test(mail.subject ?? '') && !DAEMON_SENDER.test(from)) {
    return { kind: 'not-a-bounce', why: 'neither a delivery report nor a mailer-daemon notice' };
  }
  const deliveryIds = findDeliveryIds(mail, fields, messageIdDomain, returnPathDomain ?? messageIdDomain);
  if (deliveryIds.length === 0)
    return { kind: 'unreadable', why: `it names no message of ours (no Message-ID @${messageIdDomain})` };
  const status = (fields.get('status') ?? []).find((s) => /^[245]\.\d{1,3}\.\d{1,3}$/.test(s));
  const diagnostic = fields.get('diagnostic-code')?.[0];
  const recipient = [...(fields.get('final-recipient') ?? []), ...(fields.get('original-recipient') ?? [])]
    .map((value) => value.replace(/^[a-z0-9-]+\s*;\s*/i, '').trim())
    .find(Boolean);
  const words = diagnostic ?? firstLine(mail.text) ?? mail.subject ?? 'no reason given';
  const reason = `The mail server returned it${status ? ` (${status})` : ''}: ${words}`;
  return {
    kind: 'bounce',
    deliveryIds,
    recipient,
    reason: reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON - 1)}…` : reason,
    reportId: mail.messageId ?? `sha:${source.length}:${mail.date?.toISOString() ?? ''}`,
  };
}

/** The report's header-style fields (unfolded), by lower-cased name: every value of each. */
function readFields(text: string): Map<string, string[]> {
  const fields = new Map<string, string[]>();
  const unfolded = text.replace(/\r?\n[ \t]+/g, ' ');
  for (const match of unfolded.matchAll(
    /^(Final-Recipient|Original-Recipient|Action|Status|Diagnostic-Code|X-Postfix-Sender|(?:X-)?Original-Message-ID)[ \t]*:[ \t]*(.*)$/gim,
  )) {
    const name = match[1]!.toLowerCase().replace(/^x-/, '');
    fields.set(name, [...(fields.get(name) ?? []), match[2]!.trim()]);
  }
  return fields;
}

function findDeliveryIds(
  mail: ParsedMail,
  fields: Map<string, string[]>,
  domain: string,
  verpDomain: string,
): string[] {
  const ours = new RegExp(`<([0-9a-zA-Z-]{1,64})@${escapeRegExp(domain)}>`, 'gi');
  const idsIn = (text: string) => [...text.matchAll(ours)].map((m) => m[1]!.toLowerCase());
  const returned = mail.attachments
    .filter((a) =>
      /^(text\/rfc822-headers|message\/(global-)?rfc822|message\/global-headers)$/i.test(a.contentType),
    )
    .map((a) => a.content.toString('utf8'))
    .map((text) => /^Message-ID[ \t]*:[ \t]*(.*)$/im.exec(text.replace(/\r?\n[ \t]+/g, ' '))?.[1] ?? '');
  const references = Array.isArray(mail.references)
    ? mail.references
    : mail.references
      ? [mail.references]
      : [];
  // The most precise first: the returned headers, then what names the original, then any mention.
  const candidates = [
    ...returned,
    ...(fields.get('original-message-id') ?? []),
    mail.inReplyTo ?? '',
    ...references,
  ].flatMap(idsIn);
  if (candidates.length > 0) return [...new Set(candidates)];
  const verp = new RegExp(
    `\\+([0-9a-zA-Z-]{1,64})@(${escapeRegExp(domain)}|${escapeRegExp(verpDomain)})$`,
    'i',
  );
  const verpIds = [...addressesOf(mail.to), ...addressesOf(mail.headers.get('delivered-to') as AddressObject)]
    .map((address) => verp.exec(address)?.[1]?.toLowerCase())
    .filter((id): id is string => id !== undefined);
  if (verpIds.length > 0) return [...new Set(verpIds)];
  const quoted = [
    mail.text ?? '',
    ...mail.attachments.filter((a) => /^text\//i.test(a.contentType)).map((a) => a.content.toString('utf8')),
  ].join('\n');
  return [...new Set(idsIn(quoted))];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function addressesOf(value: AddressObject | AddressObject[] | undefined): string[] {
  if (!value || typeof value !== 'object') return [];
  return (Array.isArray(value) ? value : [value])
    .flatMap((object) => object.value ?? [])
    .map((address) => address.address ?? '')
    .filter(Boolean);
}

function firstLine(text: string | undefined): string | undefined {
  return text
    ?.split('\n')
    .map((line) => line.trim())
    .find((line) => /\b(5\d\d|4\d\d)\b|unknown|rejected|does not exist|not found/i.test(line));
}
