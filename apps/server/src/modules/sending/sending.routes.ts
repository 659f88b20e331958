import { z } from 'zod';
import { sendMailBody } from '@notice-desk/contract/sending';
import type { App, AppContext } from '../../app-context.ts';

const tags = ['sending'];

export function sendingRoutes(app: App, { sending, webhooks, guards }: AppContext): void {
  app.post(
    '/api/campaigns/send-mail',
    {
      onRequest: guards.requireUser,
      schema: {
        tags,
        summary: 'Send notices',
        description:
          "Sends the caller's records (data: their ids) by e-mail with the notice PDF attached and by WhatsApp: a notice on the channels its Mode Of Dispatch names, a credit card on both. A record already sent on a channel is skipped unless resend is true. Answers how many were sent, failed, queued for retry, skipped and ignored (not the caller's).",
        body: sendMailBody,
      },
    },
    (req) => sending.send(req.user._id, req.body.type, req.body.data, req.body.resend ?? false),
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
            'Receives WhatsApp Cloud API status updates (sent, delivered, read, failed) and applies them to the matching deliveries; a status never moves backwards. The raw body must be signed with WHATSAPP_APP_SECRET in the X-Hub-Signature-256 header, else 401; 404 while that secret is unset. Called by Meta, not by staff.',
        },
      },
      async (req) => {
        const signature = req.headers['x-hub-signature-256'];
        return webhooks.receive(req.body as Buffer, typeof signature === 'string' ? signature : undefined);
      },
    );
  });
}
