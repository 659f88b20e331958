import { z } from 'zod';
import { sendMailBody } from '@notice-desk/contract/sending';
import type { App, AppContext } from '../../app-context.ts';

export function sendingRoutes(app: App, { sending, webhooks, guards }: AppContext): void {
  app.post(
    '/api/campaigns/send-mail',
    { onRequest: guards.requireUser, schema: { body: sendMailBody } },
    (req) => sending.send(req.user._id, req.body.type, req.body.data, req.body.resend ?? false),
  );

  app.get(
    '/api/webhooks/whatsapp',
    {
      schema: {
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
    scope.post('/api/webhooks/whatsapp', async (req) => {
      const signature = req.headers['x-hub-signature-256'];
      return webhooks.receive(req.body as Buffer, typeof signature === 'string' ? signature : undefined);
    });
  });
}
