import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
  /** The Message-ID header: one per message the product meant to send, however often it was sent. */
  messageId: string | undefined;
}

/**
 * A real SMTP listener on 127.0.0.1. `rejectTo` addresses get a permanent 550; `tempFail` makes the next
 * N mails get 451. On close, connections still open get a 421 after `closeTimeout` ms (30 s unless told).
 */
export async function startSmtpListener(
  options: { port?: number; rejectTo?: string[]; closeTimeout?: number } = {},
) {
  const mails: ReceivedMail[] = [];
  let tempFail = 0;
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
          return callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          messageId: /^Message-ID:\s*(\S+)/im.exec(raw)?.[1],
        });
        callback();
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
    failNext(count: number) {
      tempFail = count;
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
}

/**
 * A local peer speaking the WhatsApp Cloud API's shapes: media upload, messages (answered with
 * wamid ids), errors on demand, and signed status webhooks posted back to the product.
 */
export async function startWhatsappPeer() {
  const messages: PeerMessage[] = [];
  const media = new Map<string, number>();
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
        const message = JSON.parse(body.toString('utf8'));
        if (message.to === '910000000000')
          return send(400, { error: { message: '(#131026) Message undeliverable', code: 131026 } });
        const id = `wamid.${Buffer.from(String(++counter)).toString('base64')}`;
        const document = message.document ?? message.template?.components?.[0]?.parameters?.[0]?.document;
        messages.push({
          to: message.to,
          type: message.type,
          caption: message.document?.caption,
          mediaId: document?.id,
          filename: document?.filename,
          id,
          reference: message.biz_opaque_callback_data,
        });
        return send(200, {
          messaging_product: 'whatsapp',
          contacts: [{ input: message.to, wa_id: message.to }],
          messages: [{ id }],
        });
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
    throttle(count: number) {
      throttleNext = count;
    },
    /** A status webhook body and its X-Hub-Signature-256, as Meta would post them. */
    statusWebhook(appSecret: string, statuses: { id: string; status: string; timestamp?: number }[]) {
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
