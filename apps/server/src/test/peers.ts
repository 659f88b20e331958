import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  /** The envelope sender (MAIL FROM): where a bounce goes. */
  from: string;
  raw: string;
  /** The Message-ID header: one per message the product meant to send, however often it was sent. */
  messageId: string | undefined;
  /** When the listener took it (ms since the epoch). */
  at: number;
}

/**
 * A real SMTP listener on 127.0.0.1. `rejectTo` addresses get a permanent 550; `failNext` makes the next
 * N mails get a reply of its choosing (451 unless told: 421, 452, 554…). On close, connections still open get a 421 after `closeTimeout` ms (30 s unless told).
 */
export async function startSmtpListener(
  options: { port?: number; rejectTo?: string[]; closeTimeout?: number; answerAfterMs?: number } = {},
) {
  const mails: ReceivedMail[] = [];
  let tempFail = 0;
  let failReply = { code: 451, text: 'Try again later' };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    ...(options.closeTimeout !== undefined && { closeTimeout: options.closeTimeout }),
    logger: false,
    onRcptTo(address, _session, callback) {
      if (options.rejectTo?.includes(address.address))
        return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (tempFail > 0) {
          tempFail -= 1;
          return callback(Object.assign(new Error(failReply.text), { responseCode: failReply.code }));
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          raw,
          messageId: /^Message-ID:\s*(\S+)/im.exec(raw)?.[1],
          at: Date.now(),
        });
        // A slow mail server: the message is taken, the answer comes later.
        setTimeout(() => callback(), options.answerAfterMs ?? 0);
      });
    },
  });
  // A client killed mid-conversation resets its connection; a mail server shrugs that off.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    mails,
    failNext(count: number, code = 451, text = code >= 500 ? 'Message refused' : 'Try again later') {
      tempFail = count;
      failReply = { code, text };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface PeerMessage {
  to: string;
  type: string;
  caption?: string;
  mediaId: string;
  /** The document's file name, as the recipient's phone shows it. */
  filename?: string;
  id: string;
  /** biz_opaque_callback_data: the sender's own reference for the message. */
  reference?: string;
  /** A template message's template, its body's parameters in order, and its URL buttons' suffixes by index. */
  template?: {
    name: string;
    language: string;
    bodyParameters: string[];
    buttonSuffixes?: Record<string, string>;
  };
  /** When the peer took it (ms since the epoch). */
  at: number;
}

/** A message template as `GET /{waba-id}/message_templates` lists it. */
export interface PeerTemplate {
  name: string;
  language: string;
  status: 'APPROVED' | 'PENDING' | 'REJECTED' | 'PAUSED' | 'DISABLED';
  rejected_reason?: string;
  /** The body's text, with {{1}}, {{2}}… */
  body: string;
  /** DOCUMENT unless told. */
  headerFormat?: string;
  /** Its buttons, as Meta lists them: a URL button's address may end in {{1}}, filled per message. */
  buttons?: { type: 'URL' | 'QUICK_REPLY' | 'PHONE_NUMBER'; text: string; url?: string }[];
}

/** A template message's URL button components, as the Cloud API takes them: index → the suffix's text. */
function buttonSuffixes(components: unknown): { buttonSuffixes?: Record<string, string> } {
  const buttons = (
    (components ?? []) as {
      type?: string;
      sub_type?: string;
      index?: string;
      parameters?: { text?: string }[];
    }[]
  ).filter((c) => c.type === 'button' && c.sub_type === 'url');
  if (buttons.length === 0) return {};
  return {
    buttonSuffixes: Object.fromEntries(buttons.map((c) => [String(c.index), c.parameters?.[0]?.text ?? ''])),
  };
}

/** An error answer the peer gives to the next messages: Cloud API codes (131047, 130429…) or a bare 5xx. */
export interface PeerError {
  status: number;
  code?: number;
  message?: string;
  details?: string;
}

/**
 * A local peer speaking the WhatsApp Cloud API's shapes: media upload, messages (answered with
 * wamid ids), errors on demand, and signed status webhooks posted back to the product.
 */
export async function startWhatsappPeer(options: { answerAfterMs?: number } = {}) {
  const messages: PeerMessage[] = [];
  const media = new Map<string, number>();
  const templates: PeerTemplate[] = [];
  const errors: PeerError[] = [];
  let templateLists = 0;
  let throttleNext = 0;
  let counter = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      if (req.headers.authorization !== 'Bearer peer-token')
        return send(401, { error: { message: 'Invalid OAuth access token', code: 190 } });
      const url = new URL(req.url ?? '/', 'http://peer');
      if (req.method === 'GET' && url.pathname.endsWith('/message_templates')) {
        templateLists += 1;
        const name = url.searchParams.get('name');
        return send(200, {
          data: templates
            .filter((t) => !name || t.name.includes(name))
            .map((t, i) => ({
              id: String(1000 + i),
              name: t.name,
              language: t.language,
              status: t.status,
              category: 'UTILITY',
              ...(t.rejected_reason ? { rejected_reason: t.rejected_reason } : { rejected_reason: 'NONE' }),
              components: [
                { type: 'HEADER', format: t.headerFormat ?? 'DOCUMENT' },
                { type: 'BODY', text: t.body },
                ...(t.buttons ? [{ type: 'BUTTONS', buttons: t.buttons }] : []),
              ],
            })),
          paging: { cursors: { before: 'a', after: 'b' } },
        });
      }
      if (req.url?.endsWith('/media')) {
        const id = `media-${++counter}`;
        media.set(id, body.length);
        return send(200, { id });
      }
      if (req.url?.endsWith('/messages')) {
        if (throttleNext > 0) {
          throttleNext -= 1;
          return send(429, { error: { message: '(#130429) Rate limit hit', code: 130429 } });
        }
        const failure = errors.shift();
        // A bare status (a proxy's 502) has no Cloud API error object.
        if (failure && failure.code === undefined && failure.message === undefined)
          return send(failure.status, {});
        if (failure)
          return send(failure.status, {
            error: {
              message: failure.message ?? `(#${failure.code}) error`,
              type: 'OAuthException',
              ...(failure.code !== undefined ? { code: failure.code } : {}),
              ...(failure.details ? { error_data: { details: failure.details } } : {}),
            },
          });
        const message = JSON.parse(body.toString('utf8'));
        // 91 00000 00000 is no Indian mobile (the send leaves it out); 90000 00000 is one WhatsApp refuses.
        if (message.to === '910000000000' || message.to === '919000000000')
          return send(400, { error: { message: '(#131026) Message undeliverable', code: 131026 } });
        const document = message.document ?? message.template?.components?.[0]?.parameters?.[0]?.document;
        // A document goes by a media id this peer handed out and still has, as WhatsApp's do.
        if (document && !media.has(document.id))
          return send(400, {
            error: {
              message: '(#131053) Media upload error',
              code: 131053,
              error_data: { details: `No media with the id ${String(document.id)}` },
            },
          });
        const id = `wamid.${Buffer.from(String(++counter)).toString('base64')}`;
        messages.push({
          to: message.to,
          type: message.type,
          caption: message.document?.caption,
          mediaId: document?.id,
          filename: document?.filename,
          id,
          reference: message.biz_opaque_callback_data,
          at: Date.now(),
          ...(message.template
            ? {
                template: {
                  name: message.template.name,
                  language: message.template.language?.code,
                  bodyParameters: (
                    message.template.components?.find((c: { type: string }) => c.type === 'body')
                      ?.parameters ?? []
                  ).map((p: { text: string }) => p.text),
                  ...buttonSuffixes(message.template.components),
                },
              }
            : {}),
        });
        // A slow Cloud API: the message is taken, the answer comes later.
        return setTimeout(
          () =>
            send(200, {
              messaging_product: 'whatsapp',
              contacts: [{ input: message.to, wa_id: message.to }],
              messages: [{ id }],
            }),
          options.answerAfterMs ?? 0,
        );
      }
      send(404, { error: { message: 'Unknown path' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    apiUrl: `http://127.0.0.1:${port}/v21.0`,
    messages,
    media,
    /** Every media id uploaded so far is gone, as when WhatsApp's 30 days have passed. */
    forgetMedia() {
      media.clear();
    },
    throttle(count: number) {
      throttleNext = count;
    },
    /** The templates the business account has; tests change them in place (approve, reject). */
    templates,
    /** The next messages get these error answers, one each, in order. */
    failNext(...answers: PeerError[]) {
      errors.push(...answers);
    },
    /** How often the template listing was asked. */
    templateLists: () => templateLists,
    /** A status webhook body and its X-Hub-Signature-256, as Meta would post them. */
    statusWebhook(
      appSecret: string,
      statuses: { id: string; status: string; timestamp?: number; errors?: object[] }[],
    ) {
      const body = JSON.stringify({
        object: 'whatsapp_business_account',
        entry: [
          {
            id: '1',
            changes: [
              {
                field: 'messages',
                value: {
                  messaging_product: 'whatsapp',
                  statuses: statuses.map((s) => ({
                    ...s,
                    timestamp: String(s.timestamp ?? Math.floor(Date.now() / 1000)),
                    recipient_id: '1',
                  })),
                },
              },
            ],
          },
        ],
      });
      return { body, signature: `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}` };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An SMS MSG91's peer took. */
export interface Msg91Message {
  requestId: string;
  to: string;
  text: string;
  dltTemplateId: string;
  sender: string;
  unicode: number;
  at: number;
}

/** What the MSG91 peer answers the next SendSMS call with instead of taking it. */
export interface Msg91PeerError {
  status: number;
  body?: unknown;
  retryAfter?: string;
}

/**
 * A local MSG91 (SendSMS, `POST /api/v2/sendsms`): checks the `authkey` header as MSG91 does (its error
 * code 207 for a wrong key), answers `{ type: 'success', message: <request id> }` for one SMS, and
 * makes the delivery report MSG91 would post to the webhook URL set in its panel (version 3, JSON).
 */
export async function startMsg91Peer(options: { authKey: string }) {
  const messages: Msg91Message[] = [];
  const errors: Msg91PeerError[] = [];
  let counter = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, json: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(json));
      };
      if (req.method !== 'POST' || req.url !== '/api/v2/sendsms')
        return send(404, { type: 'error', message: 'Not found' });
      if (req.headers.authkey !== options.authKey)
        return send(200, { type: 'error', message: 'Authentication failure', code: '207' });
      const failure = errors.shift();
      if (failure)
        return send(
          failure.status,
          failure.body ?? {},
          failure.retryAfter ? { 'retry-after': failure.retryAfter } : {},
        );
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        sender: string;
        DLT_TE_ID: string;
        unicode: number;
        sms: { message: string; to: string[] }[];
      };
      const sms = body.sms[0]!;
      if (!body.DLT_TE_ID) return send(200, { type: 'error', message: 'DLT_TE_ID is required', code: '418' });
      const requestId = `3${String(++counter).padStart(23, '0')}`;
      messages.push({
        requestId,
        to: sms.to[0]!,
        text: sms.message,
        dltTemplateId: body.DLT_TE_ID,
        sender: body.sender,
        unicode: body.unicode,
        at: Date.now(),
      });
      send(200, { type: 'success', message: requestId });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}`,
    messages,
    failNext: (error: Msg91PeerError) => errors.push(error),
    /**
     * MSG91's delivery report for a request (webhook version 3): status '1' delivered, '2' failed,
     * '16' rejected…; `date` in India's time, as MSG91 writes it.
     */
    report(requestId: string, status: string, date: Date, failedReason = '') {
      const ist = new Date(date.getTime() + 5.5 * 3600_000).toISOString();
      const message = messages.find((m) => m.requestId === requestId);
      return {
        date: `${ist.slice(0, 10)} ${ist.slice(11, 19)}`,
        number: message?.to ?? '',
        senderId: message?.sender ?? '',
        amount: '0.01',
        requestId,
        INMSID: '0',
        CRQID: '0',
        credit: '1',
        userId: '000010',
        campaignName: 'API',
        status,
        desc: status === '1' ? 'DELIVERED' : status === '2' ? 'FAILED' : 'REJECTED',
        ...(failedReason && { failedReason }),
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
