import { createPublicKey, timingSafeEqual, verify, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { AppError, badRequest } from '../../lib/errors.ts';
import {
  noBounceOutcomes,
  type BounceLog,
  type BounceOutcome,
  type BouncesService,
  type EmailEvent,
} from './bounces.service.ts';

export interface EmailWebhooksOptions {
  sesTopicArn: string | undefined;
  sesCertHosts: string[];
  sendgridPublicKey: string | undefined;
  postmarkToken: string | undefined;
  messageIdDomain: string;
  /** Fetches an SNS signing certificate (tests give one that counts fetches). */
  fetchText?: (url: string) => Promise<string>;
}

/** What a webhook call did with the events it carried, one count each. */
export type EmailWebhookOutcome = Record<BounceOutcome | 'ignored', number>;

export interface EmailWebhookRequest {
  rawBody: Buffer;
  headers: Record<string, string | string[] | undefined>;
}

const MAX_EVENTS = 1000;
const text = z.string().max(10_000);

/** The parts of an SES notification read here (Bounce, Complaint, Delivery; others are ignored). */
const sesNotification = z.looseObject({
  notificationType: text.optional(),
  eventType: text.optional(),
  mail: z.looseObject({
    commonHeaders: z.looseObject({ messageId: text.optional() }).optional(),
    headers: z
      .array(z.looseObject({ name: text, value: text }))
      .max(500)
      .optional(),
  }),
  bounce: z
    .looseObject({
      bounceType: text.optional(),
      bouncedRecipients: z
        .array(
          z.looseObject({ emailAddress: text, status: text.optional(), diagnosticCode: text.optional() }),
        )
        .max(MAX_EVENTS),
    })
    .optional(),
  complaint: z
    .looseObject({ complainedRecipients: z.array(z.looseObject({ emailAddress: text })).max(MAX_EVENTS) })
    .optional(),
  delivery: z
    .looseObject({ timestamp: text.optional(), recipients: z.array(text).max(MAX_EVENTS).optional() })
    .optional(),
});

/** A Postmark bounce, spam complaint or delivery webhook body. */
const postmarkEvent = z.looseObject({
  RecordType: text,
  Type: text.optional(),
  ID: z.union([z.number(), text]).optional(),
  MessageID: text.optional(),
  Email: text.optional(),
  Recipient: text.optional(),
  DeliveredAt: text.optional(),
  Description: text.optional(),
  Details: text.optional(),
  Content: z.string().max(1_000_000).optional(),
  Metadata: z.record(z.string(), z.unknown()).optional(),
});
const unauthorized = (message: string) => new AppError(401, 'BAD_SIGNATURE', message);
const header = (req: EmailWebhookRequest, name: string) => {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/**
 * Bounce, complaint and delivery events from e-mail providers, each off until its setting is set: Amazon SES
 * (an SNS message, its signature checked with the certificate SNS names, fetched only from
 * SES_SNS_CERT_HOSTS), SendGrid (the signed event webhook, ECDSA) and Postmark (basic auth). The
 * provider is known by its signature header. Every event is checked before any is applied: an
 * unsigned, wrongly signed or malformed call answers 4xx and changes nothing.
 */
export class EmailWebhooks {
  private readonly certificates = new Map<string, Promise<KeyObject>>();
  private readonly sendgridKey: KeyObject | undefined;

  constructor(
    private readonly bounces: BouncesService,
    private readonly options: EmailWebhooksOptions,
  ) {
    this.sendgridKey = options.sendgridPublicKey
      ? createPublicKey({
          key: Buffer.from(options.sendgridPublicKey, 'base64'),
          format: 'der',
          type: 'spki',
        })
      : undefined;
  }

  async receive(req: EmailWebhookRequest, log: BounceLog): Promise<EmailWebhookOutcome> {
    let events: EmailEvent[];
    if (header(req, 'x-amz-sns-message-type')) events = await this.fromSes(req, log);
    else if (header(req, 'x-twilio-email-event-webhook-signature')) events = this.fromSendgrid(req);
    else if (header(req, 'authorization')) events = this.fromPostmark(req);
    else
      throw unauthorized(
        'The event is not signed: SES (SNS), SendGrid (signed event webhook) or Postmark (basic auth) expected.',
      );
    const outcome: EmailWebhookOutcome = noBounceOutcomes();
    for (const event of events) {
      if (event.deliveryId) outcome[await this.bounces.apply(event, log)] += 1;
      else {
        // Not one of our Message-IDs: the provider still gets a 2xx, or it would send it again and again.
        log.warn({ event: event.eventKey }, `${event.kind} names no message of ours: skipped`);
        outcome.ignored += 1;
      }
    }
    return outcome;
  }

  /** The delivery id in one of our Message-IDs, '' when the value holds none. */
  private deliveryIdIn(value: unknown): string {
    if (typeof value !== 'string') return '';
    const domain = this.options.messageIdDomain.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`<?([0-9a-f-]{36})@${domain}>?`, 'i').exec(value)?.[1]?.toLowerCase() ?? '';
  }

  // ---- Amazon SES through SNS ----

  private async fromSes(req: EmailWebhookRequest, log: BounceLog): Promise<EmailEvent[]> {
    const { sesTopicArn } = this.options;
    if (!sesTopicArn) throw new AppError(404, 'NOT_FOUND', 'SES events are not configured.');
    const sns = parseJson(req.rawBody) as Record<string, unknown>;
    const text = (name: string) => (typeof sns[name] === 'string' ? (sns[name] as string) : undefined);
    const type = text('Type');
    if (!type || !['Notification', 'SubscriptionConfirmation', 'UnsubscribeConfirmation'].includes(type))
      throw badRequest('Not an SNS message: Type must be Notification or SubscriptionConfirmation.');
    if (text('TopicArn') !== sesTopicArn) throw unauthorized('The SNS topic is not SES_SNS_TOPIC_ARN.');
    await this.checkSnsSignature(sns, text);
    if (type !== 'Notification') {
      // Subscribing is done by hand with the URL logged here: this server fetches no URL a caller names.
      log.info({ subscribeUrl: text('SubscribeURL') }, 'SNS subscription confirmation received');
      return [];
    }
    const parsed = sesNotification.safeParse(parseJson(Buffer.from(text('Message') ?? '')));
    if (!parsed.success)
      throw badRequest('The SNS message is not an SES notification (notificationType and mail).');
    const message = parsed.data;
    const notificationType = message.notificationType ?? message.eventType;
    const { mail } = message;
    const ourId =
      this.deliveryIdIn(mail.commonHeaders?.messageId) ||
      this.deliveryIdIn(mail.headers?.find((h) => /^message-id$/i.test(h?.name))?.value);
    const eventKey = `ses:${text('MessageId') ?? ''}`;
    if (notificationType === 'Bounce') {
      const { bounce } = message;
      // A transient bounce is a delay: the mail server still tries.
      if (bounce?.bounceType !== 'Permanent') return [];
      return bounce.bouncedRecipients.map((r) => ({
        kind: 'bounce' as const,
        deliveryId: ourId,
        recipient: r.emailAddress,
        reason: reasonOf(r.status, r.diagnosticCode ?? 'Amazon SES reported a permanent bounce.'),
        eventKey,
      }));
    }
    if (notificationType === 'Delivery') {
      const { delivery } = message;
      if (!delivery?.timestamp || !delivery.recipients)
        throw badRequest('An SES Delivery notification has a delivery object with timestamp and recipients.');
      const at = providerTime(delivery.timestamp, 'delivery.timestamp');
      return delivery.recipients.map((recipient) => ({
        kind: 'delivered' as const,
        deliveryId: ourId,
        recipient,
        reason: '',
        eventKey,
        at,
      }));
    }
    if (notificationType === 'Complaint')
      return (message.complaint?.complainedRecipients ?? []).map((r) => ({
        kind: 'complaint' as const,
        deliveryId: ourId,
        recipient: String(r.emailAddress ?? ''),
        reason: 'The recipient marked the notice as spam (Amazon SES complaint).',
        eventKey,
      }));
    return [];
  }

  /** SNS signature versions 1 (SHA1) and 2 (SHA256) over the canonical string, with the named certificate. */
  private async checkSnsSignature(
    sns: Record<string, unknown>,
    text: (name: string) => string | undefined,
  ): Promise<void> {
    const signature = text('Signature');
    const certUrl = text('SigningCertURL') ?? text('SigningCertUrl');
    const version = text('SignatureVersion');
    if (!signature || !certUrl || (version !== '1' && version !== '2'))
      throw unauthorized(
        'The SNS message is not signed (Signature, SigningCertURL, SignatureVersion 1 or 2).',
      );
    const names =
      text('Type') === 'Notification'
        ? ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
        : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
    const canonical = names
      .filter((name) => typeof sns[name] === 'string')
      .map((name) => `${name}\n${sns[name] as string}\n`)
      .join('');
    const key = await this.certificate(certUrl);
    const valid = verify(
      version === '1' ? 'RSA-SHA1' : 'RSA-SHA256',
      Buffer.from(canonical, 'utf8'),
      key,
      Buffer.from(signature, 'base64'),
    );
    if (!valid) throw unauthorized('The SNS signature does not match.');
  }

  /** The certificate at an allowed https URL (or an allowed http://host:port, for a local peer), cached. */
  private certificate(url: string): Promise<KeyObject> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw unauthorized('SigningCertURL is not a URL.');
    }
    const allowed = this.options.sesCertHosts.some((entry) =>
      entry.startsWith('http://')
        ? parsed.protocol === 'http:' && `http://${parsed.host}` === entry
        : parsed.protocol === 'https:' && hostMatches(entry, parsed.host),
    );
    if (!allowed || !parsed.pathname.endsWith('.pem'))
      throw unauthorized(`SigningCertURL ${parsed.host} is not one of SES_SNS_CERT_HOSTS, or not a .pem.`);
    let key = this.certificates.get(url);
    if (!key) {
      const fetchText =
        this.options.fetchText ??
        (async (u: string) => {
          const response = await fetch(u, { redirect: 'error', signal: AbortSignal.timeout(10_000) });
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          return response.text();
        });
      key = fetchText(url).then((pem) => createPublicKey(pem));
      this.certificates.set(url, key);
      key.catch(() => this.certificates.delete(url));
    }
    return key.catch((err: Error) => {
      throw new AppError(
        502,
        'CERTIFICATE_UNAVAILABLE',
        `The SNS signing certificate could not be read: ${err.message}`,
      );
    });
  }

  // ---- SendGrid signed event webhook ----

  private fromSendgrid(req: EmailWebhookRequest): EmailEvent[] {
    if (!this.sendgridKey) throw new AppError(404, 'NOT_FOUND', 'SendGrid events are not configured.');
    const signature = header(req, 'x-twilio-email-event-webhook-signature') ?? '';
    const timestamp = header(req, 'x-twilio-email-event-webhook-timestamp') ?? '';
    const valid =
      /^\d{1,12}$/.test(timestamp) &&
      verify(
        'sha256',
        Buffer.concat([Buffer.from(timestamp), req.rawBody]),
        { key: this.sendgridKey, dsaEncoding: 'der' },
        Buffer.from(signature, 'base64'),
      );
    if (!valid) throw unauthorized('The SendGrid event signature does not match.');
    const events = parseJson(req.rawBody);
    if (!Array.isArray(events) || events.some((e) => typeof e !== 'object' || e === null))
      throw badRequest('A SendGrid event webhook body is a JSON list of events.');
    if (events.length > MAX_EVENTS) throw badRequest(`At most ${MAX_EVENTS} events in one call.`);
    return (events as Record<string, unknown>[]).flatMap((e): EmailEvent[] => {
      if (e.event === 'delivered') {
        if (typeof e.timestamp !== 'number')
          throw badRequest('A SendGrid delivered event has a timestamp in seconds since 1970.');
        return [
          {
            kind: 'delivered',
            deliveryId: this.deliveryIdIn(e['smtp-id']),
            recipient: typeof e.email === 'string' ? e.email : undefined,
            reason: '',
            eventKey: `sendgrid:${String(e.sg_event_id ?? e.sg_message_id ?? '')}`,
            at: providerTime(e.timestamp * 1000, 'timestamp'),
          },
        ];
      }
      const kind =
        e.event === 'spamreport'
          ? 'complaint'
          : e.event === 'bounce' && e.type !== 'blocked'
            ? 'bounce'
            : undefined;
      if (!kind) return [];
      return [
        {
          kind,
          deliveryId: this.deliveryIdIn(e['smtp-id']),
          recipient: typeof e.email === 'string' ? e.email : undefined,
          reason:
            kind === 'complaint'
              ? 'The recipient marked the notice as spam (SendGrid spam report).'
              : reasonOf(e.status, e.reason ?? 'SendGrid reported a bounce.'),
          eventKey: `sendgrid:${String(e.sg_event_id ?? e.sg_message_id ?? '')}`,
        },
      ];
    });
  }

  // ---- Postmark ----

  /**
   * Postmark names its own MessageID; ours comes back in the Metadata we send (the X-PM-Metadata-delivery
   * header, whose name the mailer writes as X-Pm-Metadata-Delivery: any case) or a bounce's returned content.
   */
  private postmarkDeliveryId(event: z.infer<typeof postmarkEvent>): string {
    const metadata = Object.entries(event.Metadata ?? {}).find(([key]) => key.toLowerCase() === 'delivery');
    return (
      this.deliveryIdIn(`<${String(metadata?.[1] ?? '')}@${this.options.messageIdDomain}>`) ||
      this.deliveryIdIn(event.Content)
    );
  }

  private fromPostmark(req: EmailWebhookRequest): EmailEvent[] {
    const { postmarkToken } = this.options;
    if (!postmarkToken) throw new AppError(404, 'NOT_FOUND', 'Postmark events are not configured.');
    const [scheme, credentials = ''] = (header(req, 'authorization') ?? '').split(' ');
    const password = Buffer.from(credentials, 'base64').toString('utf8').split(':').slice(1).join(':');
    const given = Buffer.from(scheme?.toLowerCase() === 'basic' ? password : '');
    const expected = Buffer.from(postmarkToken);
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw unauthorized('The Postmark webhook credentials do not match POSTMARK_WEBHOOK_TOKEN.');
    const parsed = postmarkEvent.safeParse(parseJson(req.rawBody));
    if (!parsed.success) throw badRequest('A Postmark webhook body is a JSON object with a RecordType.');
    const event = parsed.data;
    if (event.RecordType === 'Delivery') {
      if (!event.DeliveredAt || !event.Recipient)
        throw badRequest('A Postmark Delivery webhook body has DeliveredAt and Recipient.');
      return [
        {
          kind: 'delivered',
          deliveryId: this.postmarkDeliveryId(event),
          recipient: event.Recipient,
          reason: '',
          // A delivery event has no ID of its own: Postmark reports one per message and recipient.
          eventKey: `postmark:${event.MessageID ?? ''}:${event.Recipient}`,
          at: providerTime(event.DeliveredAt, 'DeliveredAt'),
        },
      ];
    }
    const kind =
      event.RecordType === 'SpamComplaint'
        ? 'complaint'
        : event.RecordType === 'Bounce' &&
            ['HardBounce', 'BadEmailAddress', 'ManuallyDeactivated'].includes(event.Type ?? '')
          ? 'bounce'
          : undefined;
    if (!kind) return [];
    return [
      {
        kind,
        deliveryId: this.postmarkDeliveryId(event),
        recipient: event.Email,
        reason:
          kind === 'complaint'
            ? 'The recipient marked the notice as spam (Postmark spam complaint).'
            : `The mail server returned it: ${[event.Description, event.Details].filter(Boolean).join(' ') || event.Type}`,
        eventKey: `postmark:${String(event.ID ?? '')}`,
      },
    ];
  }
}

/** A provider's time (ISO text or epoch milliseconds) as our ISO time; a 400 naming the field when it is none. */
function providerTime(value: string | number, field: string): string {
  const time = new Date(value);
  if (Number.isNaN(time.getTime()) || time.getUTCFullYear() < 2000 || time.getUTCFullYear() > 9999)
    throw badRequest(`${field} is not a time: '${String(value).slice(0, 40)}'.`);
  return time.toISOString();
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw badRequest('The body is not JSON.');
  }
}

function reasonOf(status: unknown, words: unknown): string {
  const code = typeof status === 'string' && /^[245]\.\d{1,3}\.\d{1,3}$/.test(status) ? ` (${status})` : '';
  return `The mail server returned it${code}: ${String(words).slice(0, 450)}`;
}

/** `sns.*.amazonaws.com` matches sns.eu-west-1.amazonaws.com: `*` is one label. */
function hostMatches(pattern: string, host: string): boolean {
  const labels = pattern.split('.');
  const given = host.toLowerCase().split('.');
  return labels.length === given.length && labels.every((label, i) => label === '*' || label === given[i]);
}
