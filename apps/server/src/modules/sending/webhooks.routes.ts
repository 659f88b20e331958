import { z } from 'zod';
import type { App, AppContext } from '../../app-context.ts';

const tags = ['sending'];

/** The WhatsApp Cloud API's status webhooks. Called by Meta, not by staff: no session, a signature instead. */
export function webhooksRoutes(app: App, { webhooks, smsWebhooks }: AppContext): void {
  app.post(
    '/api/webhooks/sms/msg91',
    {
      schema: {
        tags,
        summary: 'MSG91 SMS delivery report webhook',
        description:
          "Receives MSG91's SMS delivery reports (its webhook version 3: a JSON object, or a list of them, with requestId, status and date in India's time) and applies each to the SMS delivery MSG91 gave that request id, once, forward only: status 1 delivered; 2, 9, 16, 17 and 25 failed (with the reason); any other is ignored. MSG91 signs nothing, so the URL set in its panel carries SMS_WEBHOOK_TOKEN as ?token=: a wrong or missing token answers 401, and 404 while the setting is unset. A malformed body answers 400 naming the problem, and nothing of it is applied. Answers counts: applied, unchanged (a status never moves backwards), replayed, unmatched, ignored. Called by MSG91, not by staff.",
        querystring: z.object({ token: z.string().max(200).optional() }),
      },
    },
    async (req) => smsWebhooks.receive(req.query.token, req.body),
  );

  app.get(
    '/api/webhooks/whatsapp',
    {
      schema: {
        tags,
        summary: 'WhatsApp webhook verification',
        description:
          'The WhatsApp Cloud API verification handshake: answers hub.challenge as text when hub.verify_token matches WHATSAPP_VERIFY_TOKEN, 403 otherwise, 404 while it is unset. Called by Meta, not by staff.',
        querystring: z.object({
          'hub.mode': z.string().optional(),
          'hub.verify_token': z.string().optional(),
          'hub.challenge': z.string().max(200).optional(),
        }),
      },
    },
    async (req, reply) =>
      reply
        .type('text/plain')
        .send(
          webhooks.verify(req.query['hub.mode'], req.query['hub.verify_token'], req.query['hub.challenge']),
        ),
  );

  // The signature covers the exact bytes Meta sent, so this route reads its body raw.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    scope.post(
      '/api/webhooks/whatsapp',
      {
        schema: {
          tags,
          summary: 'WhatsApp delivery status webhook',
          description:
            "Receives WhatsApp Cloud API status updates and applies each to the WhatsApp delivery with that provider message id (never another channel's, never an outbox one), once, forward only. The raw body must be signed with WHATSAPP_APP_SECRET in the X-Hub-Signature-256 header, else 401; 404 while that secret is unset. The whole body is checked against the Cloud API's shape first: a malformed one answers 400 naming the problem and nothing of it is applied. Statuses sent, delivered, read and failed are applied; deleted, warning and played are ignored; any other is refused. Answers counts: applied (the status moved), unchanged (recorded, but a status never moves backwards), replayed (the same message, status and timestamp was already recorded: nothing changes), refused (older than WEBHOOK_MAX_AGE or from the future: skipped and logged), unmatched (no such WhatsApp delivery) and ignored. A body whose every status is refused answers 400. Called by Meta, not by staff.",
        },
      },
      async (req) => {
        const signature = req.headers['x-hub-signature-256'];
        return webhooks.receive(
          Buffer.isBuffer(req.body) ? req.body : undefined,
          typeof signature === 'string' ? signature : undefined,
          req.log,
        );
      },
    );
  });
}
